import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The peers, measured in the same run on the same slices: Universal Ctags (Debian's
 * universal-ctags) as the speed reference for tag extraction; repomix --compress, what a
 * JavaScript user would pick to pack a repository for an LLM today; llm-code-highlighter, a
 * JavaScript port of aider's repo map. npm peers are installed, pinned, in a scratch folder
 * outside the repository.
 */
export const NPM_PEERS = { repomix: '1.18.1', 'llm-code-highlighter': '0.0.15' } as const;
const SCRATCH = process.env.REPOMAP_BENCH_PEERS ?? join(homedir(), '.cache', 'repomap-bench', 'peers');

export interface Peer {
  name: 'ctags' | 'repomix' | 'llm-code-highlighter';
  version: string;
  /** The scenario it is measured in, as the report names it. */
  scenario: string;
  /** The command line for one run on `root`, writing what it makes under `outDir`. */
  command(root: string, outDir: string): [string, string[]];
}

export interface PeerSetup {
  peers: Peer[];
  /** Peers that cannot run here, with the reason. */
  missing: { name: string; reason: string }[];
}

export function setUpPeers(): PeerSetup {
  const setup: PeerSetup = { peers: [], missing: [] };
  const ctags = universalCtags();
  if (typeof ctags === 'string') setup.missing.push({ name: 'ctags', reason: ctags });
  else setup.peers.push(ctags);
  const installed = installNpmPeers();
  if (installed !== null) {
    for (const name of Object.keys(NPM_PEERS)) setup.missing.push({ name, reason: installed });
    return setup;
  }
  setup.peers.push({
    name: 'repomix',
    version: NPM_PEERS.repomix,
    scenario: 'repomix --compress',
    command: (root, outDir) => [
      process.execPath,
      [join(SCRATCH, 'node_modules/repomix/bin/repomix.cjs'), root, '--compress', '--quiet', '-o', join(outDir, 'repomix.xml')],
    ],
  });
  setup.peers.push({
    name: 'llm-code-highlighter',
    version: NPM_PEERS['llm-code-highlighter'],
    scenario: 'llm-code-highlighter 1024',
    command: (root) => [process.execPath, [fileURLToPath(import.meta.url), 'drive-llm-code-highlighter', root, '1024']],
  });
  return setup;
}

/** Universal Ctags, installed from Debian's package when absent and we may; else why not. */
function universalCtags(): Peer | string {
  const version = () => spawnSync('ctags', ['--version'], { encoding: 'utf8' }).stdout?.split('\n')[0] ?? '';
  if (!version().includes('Universal Ctags') && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    console.error('installing universal-ctags (Debian) ...');
    spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'universal-ctags'], { stdio: 'ignore' });
  }
  const found = version();
  if (!found.includes('Universal Ctags')) return 'no Universal Ctags (Debian package universal-ctags) and it could not be installed';
  return {
    name: 'ctags',
    version: found.replace('Universal Ctags ', '').replace(/,.*/, ''),
    scenario: 'ctags -R',
    command: (root, outDir) => ['ctags', ['-R', '-f', join(outDir, 'tags'), root]],
  };
}

/** Installs the pinned npm peers into the scratch folder unless there; null when they are ready, else why not. */
function installNpmPeers(): string | null {
  const ready = () =>
    Object.entries(NPM_PEERS).every(([name, version]) => {
      const manifest = join(SCRATCH, 'node_modules', name, 'package.json');
      return existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version === version;
    });
  if (ready()) return null;
  console.error(
    `installing ${Object.entries(NPM_PEERS)
      .map(([name, version]) => `${name}@${version}`)
      .join(', ')} in ${SCRATCH} ...`,
  );
  mkdirSync(SCRATCH, { recursive: true });
  writeFileSync(join(SCRATCH, 'package.json'), JSON.stringify({ name: 'repomap-bench-peers', private: true }));
  const specs = Object.entries(NPM_PEERS).map(([name, version]) => `${name}@${version}`);
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', ...specs], { cwd: SCRATCH, encoding: 'utf8' });
  if (result.status !== 0 || !ready()) return `npm install ${specs.join(' ')} failed: ${(result.stderr ?? '').trim().split('\n').pop()}`;
  return null;
}

/**
 * llm-code-highlighter is a library: this drives it as a user would, with every source file of
 * the tree as a non-chat source and its own way of sizing (4 characters a token).
 */
async function driveLlmCodeHighlighter(root: string, tokens: number): Promise<void> {
  const { getHighlightsThatFit } = createRequire(join(SCRATCH, 'package.json'))('llm-code-highlighter') as {
    getHighlightsThatFit(sizer: { fits(content: string): boolean }, chat: Source[], other: Source[]): Promise<string | undefined>;
  };
  const sources: Source[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(py|js|jsx|mjs|cjs|ts|mts|cts|tsx|rs|go|java)$/.test(entry.name))
        sources.push({ relPath: relative(root, path), code: readFileSync(path, 'utf8') });
    }
  };
  walk(root);
  const highlights = await getHighlightsThatFit({ fits: (content) => content.length <= tokens * 4 }, [], sources);
  if (!highlights) throw new Error('llm-code-highlighter made no highlights');
  process.stdout.write(highlights);
}

interface Source {
  relPath: string;
  code: string;
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'drive-llm-code-highlighter') {
  await driveLlmCodeHighlighter(process.argv[3]!, Number(process.argv[4]));
}
