import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The one way repomap runs git. The repository is untrusted, its `.git` folder included: its
 * config (and any file it includes) can name programs for git to run, point the work tree
 * elsewhere, or make git fetch from a remote. Every run here overrides each key that runs a
 * program (command-line config wins over every config file), forbids every transport (so a
 * partial clone's lazy fetch cannot start ssh or a remote helper), drops the inherited variables
 * that redirect git, names the work tree itself, and is bounded in time and output. A missing
 * git, a failure, a timeout or too much output is null: the caller does without git.
 */

/** Where git runs: a folder of the work tree whose top holds `.git`, or a git directory (no work tree). */
export type GitPlace = { root: string; workTree: string } | { gitDir: string };

/** Long enough for `ls-files` of a very large work tree; a FIFO for a `.gitignore` blocks git until then. */
const GIT_TIMEOUT_MS = 20_000;
/** A million paths of 60 bytes. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/** A path that cannot exist (/dev/null is no folder): a program or hook looked up there is never found. */
const NOWHERE = '/dev/null/repomap-runs-no-program';

/**
 * Each config key of git 2.39 that names a program a read-only command, or a fetch it starts,
 * could run. Filters, textconv and diff drivers (named per repository in .gitattributes) run
 * only when git converts or diffs contents, which no command here does (`--no-ext-diff
 * --no-textconv` on `log` besides); aliases cannot shadow the builtins run here.
 */
const CONFIG_OVERRIDES = [
  'core.fsmonitor=false',
  // The index's untracked cache is the repository's bytes too: git neither trusts nor updates it.
  'core.untrackedCache=false',
  `core.hooksPath=${NOWHERE}`,
  'core.pager=cat',
  `core.editor=${NOWHERE}`,
  `sequence.editor=${NOWHERE}`,
  `core.sshCommand=${NOWHERE}`,
  `core.askPass=${NOWHERE}`,
  `core.alternateRefsCommand=${NOWHERE}`,
  `diff.external=${NOWHERE}`,
  'log.showSignature=false',
  `gpg.program=${NOWHERE}`,
  `gpg.openpgp.program=${NOWHERE}`,
  `gpg.x509.program=${NOWHERE}`,
  `gpg.ssh.program=${NOWHERE}`,
  `gpg.ssh.defaultKeyCommand=${NOWHERE}`,
  // An empty value empties the list of helpers.
  'credential.helper=',
  // A repository's own protocol.<name>.allow beats this default: GIT_ALLOW_PROTOCOL below is what holds.
  'protocol.allow=never',
].flatMap((setting) => ['-c', setting]);

/** The user's own (trusted) config files stay; what names them is all repomap keeps of git's variables. */
const KEPT_GIT_VARIABLES = new Set(['GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_CONFIG_NOSYSTEM']);

function gitEnvironment(): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.toUpperCase().startsWith('GIT_') || KEPT_GIT_VARIABLES.has(name)) environment[name] = value;
  }
  return Object.assign(environment, {
    // An empty list: no transport at all, whatever the repository's protocol.<name>.allow says.
    GIT_ALLOW_PROTOCOL: '',
    GIT_PROTOCOL_FROM_USER: '0',
    // A partial clone fetches no missing object (git 2.39.4 and later): a tree missing is a failed `log`.
    GIT_NO_LAZY_FETCH: '1',
    GIT_TERMINAL_PROMPT: '0',
    // No lock taken on a repository someone else may be using, no index refreshed and written.
    GIT_OPTIONAL_LOCKS: '0',
    GIT_NO_REPLACE_OBJECTS: '1',
  });
}

/** The top of the work tree holding `root`: the nearest folder, `root` or above, holding `.git`; null when none does. */
export function gitWorkTree(root: string): string | null {
  for (let dir = root; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

function gitArguments(place: GitPlace, args: readonly string[]): string[] {
  // An explicit work tree overrides core.worktree, which could send `ls-files --others` walking any folder.
  const where = 'root' in place ? ['-C', place.root, `--work-tree=${place.workTree}`] : [`--git-dir=${place.gitDir}`];
  return ['--no-pager', ...CONFIG_OVERRIDES, ...where, ...args];
}

/** git's standard output, or null (see above). Blocks: for discovery, which is synchronous. */
export function runGitSync(place: GitPlace, args: readonly string[]): Buffer | null {
  const result = childProcess().spawnSync('git', gitArguments(place, args), {
    env: gitEnvironment(),
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: MAX_OUTPUT_BYTES,
    timeout: GIT_TIMEOUT_MS,
    killSignal: 'SIGKILL',
    windowsHide: true,
  });
  return result.status === 0 && !result.error ? result.stdout : null;
}

/** git's standard output, or null (see above). */
export function runGit(place: GitPlace, args: readonly string[]): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const child = childProcess().execFile(
      'git',
      gitArguments(place, args),
      { encoding: 'buffer', env: gitEnvironment(), maxBuffer: MAX_OUTPUT_BYTES, timeout: GIT_TIMEOUT_MS, killSignal: 'SIGKILL', windowsHide: true },
      (error, stdout) => resolve(error ? null : stdout),
    );
    child.stdin?.end();
  });
}

/** Loaded on first run: a command that runs no git (the navigation commands) need not load it, nor the net and stream modules it brings. */
function childProcess(): typeof import('node:child_process') {
  return process.getBuiltinModule('node:child_process');
}
