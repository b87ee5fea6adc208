import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SuspectCheckRequest } from '../../workers/checkSuspects.js';
import type { ShardFile } from './shardMessages.js';

// Two levels below dist/ both as compiled (dist/src/index) and bundled (dist/bundle/cli).
const CHECKER_FILE = new URL('../../workers/checkSuspects.js', import.meta.url);
const JOURNAL_PREFIX = 'parsing-';

/**
 * Files that an earlier run was parsing when it died, read from the journals its workers left
 * (one per thread, named by process and thread). Journals of a live process belong to a run
 * still going and are left alone; the others are removed once read.
 */
export function takeCrashSuspects(journalDir: string): string[] {
  const suspects = new Set<string>();
  let names: string[];
  try {
    names = readdirSync(journalDir).filter((name) => name.startsWith(JOURNAL_PREFIX));
  } catch {
    return [];
  }
  for (const name of names) {
    const pid = Number(name.slice(JOURNAL_PREFIX.length).split('-')[0]);
    if (pid !== process.pid && processIsAlive(pid)) continue;
    const path = join(journalDir, name);
    try {
      const noted = readFileSync(path, 'utf8').split('\n', 1)[0];
      if (noted) suspects.add(noted);
      rmSync(path, { force: true });
    } catch {
      // A journal that vanished meanwhile was cleaned by its own run.
    }
  }
  return [...suspects].sort();
}

/** Removes this process's journals at the end of a run that finished. */
export function removeOwnJournals(journalDir: string): void {
  try {
    for (const name of readdirSync(journalDir)) {
      if (name.startsWith(`${JOURNAL_PREFIX}${process.pid}-`)) rmSync(join(journalDir, name), { force: true });
    }
  } catch {
    // Nothing to clean.
  }
}

function processIsAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Parses the suspects one by one in a child process; a file that kills the child is a culprit.
 * A killed run (SIGKILL, power cut) leaves innocent suspects: they parse fine here and are
 * indexed as usual. Returns the culprits.
 */
export async function findCrashCulprits(suspects: ShardFile[], options: Omit<SuspectCheckRequest, 'files'>): Promise<string[]> {
  const culprits: string[] = [];
  let remaining = suspects;
  while (remaining.length > 0) {
    const { done, crashedOn } = await runChecker({ ...options, files: remaining });
    if (!crashedOn) break;
    culprits.push(crashedOn);
    remaining = remaining.filter((file) => file.path !== crashedOn && !done.has(file.path));
  }
  return culprits;
}

function runChecker(request: SuspectCheckRequest): Promise<{ done: Set<string>; crashedOn: string | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [fileURLToPath(CHECKER_FILE), JSON.stringify(request)], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const deadline = setTimeout(() => child.kill('SIGKILL'), request.fileTimeoutMs * request.files.length + 10_000);
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('close', (code, signal) => {
      clearTimeout(deadline);
      const done = new Set<string>();
      let started: string | null = null;
      for (const line of output.split('\n')) {
        const [event, path] = line.split('\t');
        if (event === 'started') started = path!;
        if (event === 'done') {
          done.add(path!);
          started = null;
        }
      }
      const crashed = code !== 0 || signal !== null;
      resolve({ done, crashedOn: crashed ? started : null });
    });
  });
}
