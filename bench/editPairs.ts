import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ownInode } from './corpora.js';
import { median, timedRun } from './measure.js';

/**
 * Two builds' warm maps and maps after an edit, paired: `node dist/bench/editPairs.js --base
 * OTHER/dist/bundle/cli/main.js [--head CLI] --file REL [--pairs N] ROOT`. Each build keeps a store
 * of its own; each pair runs both builds' warm maps, then edits REL (a comment line appended, then
 * taken away again), then runs both builds' maps after the edit, in turns, so the machine's drift
 * falls on both. Prints medians, each build's edit ÷ warm, and the median of the head ÷ base
 * ratios of the maps after an edit. The file gets an inode of its own first (corpus slices share them).
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    base: { type: 'string' },
    head: { type: 'string', default: fileURLToPath(new URL('../bundle/cli/main.js', import.meta.url)) },
    file: { type: 'string' },
    pairs: { type: 'string', default: '10' },
  },
});
const root = positionals[0];
if (!root || !values.base || !values.file) {
  process.stderr.write('usage: node dist/bench/editPairs.js --base CLI [--head CLI] --file REL [--pairs N] ROOT\n');
  process.exit(1);
}
const builds = { base: values.base, head: values.head } as const;
type Build = keyof typeof builds;
const pairs = Number(values.pairs);
const edited = join(root, values.file);
ownInode(edited);
const original = readFileSync(edited);
const comment = /\.py$/.test(edited) ? '# edit' : '// edit';
const stores = { base: mkdtempSync(join(tmpdir(), 'repomap-edit-pairs-')), head: mkdtempSync(join(tmpdir(), 'repomap-edit-pairs-')) };

const timed = (args: string[]): number => timedRun(process.execPath, args).wallMs;
const map = (build: Build): number => timed([builds[build], 'map', root, '--cache-dir', stores[build]]);

try {
  for (const build of ['base', 'head'] as const) {
    timed([builds[build], 'index', root, '--cache-dir', stores[build]]);
    map(build);
  }
  const warm = { base: [] as number[], head: [] as number[] };
  const edit = { base: [] as number[], head: [] as number[] };
  const bare: number[] = [];
  for (let pair = 0; pair < pairs; pair++) {
    bare.push(timed(['-e', '0']));
    const order: Build[] = pair % 2 === 0 ? ['base', 'head'] : ['head', 'base'];
    for (const build of order) warm[build].push(map(build));
    writeFileSync(edited, pair % 2 === 0 ? Buffer.concat([original, Buffer.from(`\n${comment}\n`)]) : original);
    for (const build of order) edit[build].push(map(build));
  }
  const line = (build: Build) =>
    `${build}: warm ${median(warm[build]).toFixed(0)} ms, after an edit ${median(edit[build]).toFixed(0)} ms, edit ÷ warm ${(median(edit[build]) / median(warm[build])).toFixed(2)}, warm ÷ node ${(median(warm[build]) / median(bare)).toFixed(2)}`;
  const ratio = median(edit.head.map((ms, i) => ms / edit.base[i]!));
  process.stdout.write(
    `${root}, ${values.file}, ${pairs} pairs, node -e 0 ${median(bare).toFixed(0)} ms\n  ${line('base')}\n  ${line('head')}\n  after an edit, head ÷ base: ${ratio.toFixed(2)}\n`,
  );
} finally {
  writeFileSync(edited, original);
  for (const store of Object.values(stores)) rmSync(store, { recursive: true, force: true });
}
