import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { type CliResult, runCli } from './cli.js';

/**
 * Runs the CLI under strace, following every process and thread, and reads back what each
 * touched: the files it read or wrote (by what the kernel says each descriptor is, so a symlink
 * followed shows where it led) and the programs it ran.
 */

/** Why tracing cannot run here, or null when it can (strace present and allowed to trace). */
export const traceUnavailable: string | null = (() => {
  const probe = spawnSync('strace', ['-f', '-qq', '-e', 'trace=execve', '-o', '/dev/null', 'true']);
  if (probe.error) return 'strace is not installed';
  return probe.status === 0 ? null : `strace cannot trace here: ${probe.stderr.toString().trim()}`;
})();

export interface Traced {
  result: CliResult;
  /** Programs executed, as execve named them. */
  executed: string[];
  /** Files whose contents were read (read, pread, readv or mmap of a descriptor naming them). */
  read: string[];
  /** Files opened, made, renamed, removed or changed for writing, and folders made or removed. */
  written: string[];
}

const SYSCALLS = [
  '%file',
  'read',
  'pread64',
  'readv',
  'preadv',
  'preadv2',
  'mmap',
  'write',
  'pwrite64',
  'writev',
  'pwritev',
  'pwritev2',
  'ftruncate',
  'fchmod',
  'fchown',
].join(',');

export async function tracedCli(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Traced> {
  const dir = mkdtempSync(join(tmpdir(), 'repomap-trace-'));
  try {
    const strace = `exec strace -ff -y -qq -s 0 -e trace=${SYSCALLS} -o '${join(dir, 'trace')}' "$0" "$@"`;
    const result = await runCli(args, { ...options, shell: strace });
    const lines = readdirSync(dir).flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n'));
    return { result, ...classify(lines, options.cwd ?? process.cwd()) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const CALL = /^(\w+)\((.*)\) += (-?\d+)(?:<([^>]*)>)?/;
const WRITE_FLAGS = /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND/;
const PATH_CHANGES = new Set([
  'mkdir',
  'mkdirat',
  'rmdir',
  'unlink',
  'unlinkat',
  'rename',
  'renameat',
  'renameat2',
  'link',
  'linkat',
  'symlink',
  'symlinkat',
  'chmod',
  'fchmodat',
  'chown',
  'fchownat',
  'lchown',
  'truncate',
  'utimensat',
  'creat',
  'mknod',
  'mknodat',
]);
const CONTENT_READS = new Set(['read', 'pread64', 'readv', 'preadv', 'preadv2', 'mmap']);
const CONTENT_WRITES = new Set(['write', 'pwrite64', 'writev', 'pwritev', 'pwritev2', 'ftruncate', 'fchmod', 'fchown']);

function classify(lines: string[], cwd: string): Omit<Traced, 'result'> {
  const executed: string[] = [];
  const read = new Set<string>();
  const written = new Set<string>();
  for (const line of lines) {
    const call = CALL.exec(line);
    if (!call) continue;
    const [, name, args, result, resultPath] = call as unknown as [string, string, string, string, string | undefined];
    if (Number(result) < 0) continue;
    // The descriptors an argument names, as the kernel saw them: `3</real/path>`.
    const described = [...args.matchAll(/\d+<(\/[^>]*)>/g)].map((match) => match[1]!);
    if (name === 'execve') executed.push(quoted(args)[0] ?? '');
    else if (CONTENT_READS.has(name)) for (const path of described) read.add(path);
    else if (CONTENT_WRITES.has(name)) for (const path of described) written.add(path);
    else if ((name === 'openat' || name === 'open') && resultPath?.startsWith('/')) {
      if (WRITE_FLAGS.test(args)) written.add(resultPath);
    } else if (PATH_CHANGES.has(name)) {
      // Paths as given, against the folder a descriptor before them names, else the working folder.
      const base = /^(?:AT_FDCWD|\d+)<(\/[^>]*)>/.exec(args)?.[1] ?? cwd;
      for (const path of quoted(args)) written.add(resolve(base, path));
    }
  }
  return { executed, read: [...read].sort(), written: [...written].sort() };
}

function quoted(args: string): string[] {
  return [...args.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => JSON.parse(`"${match[1]!.replace(/\\x([0-9a-f]{2})/g, '\\u00$1')}"`) as string);
}

/** Where a path lies: inside `folder` (or is it). */
export const within = (folder: string) => (path: string) => path === folder || path.startsWith(`${folder}/`);

/** The programs a run may start: node itself (the suspect checker) and git. */
export const allowedProgram = (program: string) => program === process.execPath || basename(program) === 'git';
