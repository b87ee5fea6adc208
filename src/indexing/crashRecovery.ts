import { closeSync, constants, openSync, readdirSync, readSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LIMITS } from '../defaults.js';
import { suspectCheckerFile } from '../packageFiles.js';
import { processIsAlive } from '../processAlive.js';
import { type CheckSuspectsRequest, type ParseLimits, readReports, type ShardFile, WorkerProtocolError } from './workerProtocol.js';

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
      const noted = notedPath(journalHead(path));
      if (noted) suspects.add(noted);
      rmSync(path, { force: true });
    } catch {
      // A journal that vanished meanwhile was cleaned by its own run.
    }
  }
  return [...suspects].sort();
}

/** A path of 4,096 bytes, each escaped as JSON at worst (`\u0000`), fits: a journal's first line is no longer. */
const JOURNAL_HEAD_BYTES = 6 * 4096 + 3;

/** The start of a journal, however large the file: only its first line counts. */
function journalHead(path: string): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const bytes = Buffer.alloc(JOURNAL_HEAD_BYTES);
    return bytes.toString('utf8', 0, readSync(fd, bytes, 0, JOURNAL_HEAD_BYTES, 0));
  } finally {
    closeSync(fd);
  }
}

/** The path a journal notes (workers/parseFiles.ts writes it as JSON on the first line, over what was there), or null. */
function notedPath(journal: string): string | null {
  try {
    const noted: unknown = JSON.parse(journal.split('\n', 1)[0]!);
    return typeof noted === 'string' && noted !== '' ? noted : null;
  } catch {
    // Torn by the crash it records, or not ours: it names no file.
    return null;
  }
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

/**
 * Parses the suspects one by one in a child process; a file that kills the child is a culprit.
 * A killed run (SIGKILL, power cut) leaves innocent suspects: they parse fine here and are
 * indexed as usual. Returns the culprits.
 */
export async function findCrashCulprits(suspects: ShardFile[], limits: ParseLimits): Promise<string[]> {
  const culprits: string[] = [];
  let remaining = suspects;
  while (remaining.length > 0) {
    const { done, crashedOn } = await checkSuspects({ kind: 'check-suspects', ...limits, files: remaining });
    if (!crashedOn) break;
    culprits.push(crashedOn);
    remaining = remaining.filter((file) => file.path !== crashedOn && !done.has(file.path));
  }
  return culprits;
}

/** Runs the checker on `request`: the files it finished, and the one it died on, if it died. */
async function checkSuspects(request: CheckSuspectsRequest): Promise<{ done: Set<string>; crashedOn: string | null }> {
  const { output, crashed } = await runChecker(request);
  const done = new Set<string>();
  let started: string | null = null;
  for (const report of readReports(output)) {
    if (report.kind === 'request-rejected') throw new WorkerProtocolError(`the suspect checker rejected its request: ${report.reason}`);
    if (report.kind === 'parse-started') started = report.path;
    else {
      done.add(report.path);
      started = null;
    }
  }
  return { done, crashedOn: crashed ? started : null };
}

function runChecker(request: CheckSuspectsRequest): Promise<{ output: string; crashed: boolean }> {
  return new Promise((resolve) => {
    // Loaded here: only a run that met a crash checks its suspects.
    const child = process.getBuiltinModule('node:child_process').spawn(process.execPath, [suspectCheckerFile(), JSON.stringify(request)], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const deadline = setTimeout(() => child.kill('SIGKILL'), Math.min(LIMITS.maxTimerMs, request.fileTimeoutMs * request.files.length + 10_000));
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('close', (code, signal) => {
      clearTimeout(deadline);
      resolve({ output, crashed: code !== 0 || signal !== null });
    });
  });
}
