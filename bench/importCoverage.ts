/**
 * How many import entries name a repository file, per language, on corpus slices, with a
 * sample of the entries that name none. Indexes each slice into a temporary cache folder. A
 * slice holds 500 files of larger packages, so a second figure resolves the same entries as
 * if the whole packages were indexed (the slice's `.files` list names where they come from).
 *
 *   node dist/bench/importCoverage.js [slice ...]      (default: python-500 js-500 ts-500 mixed-500)
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ImportingFile } from '../src/imports/importGraph.js';
import { importingFileOf } from '../src/imports/importingFile.js';
import { resolveImports } from '../src/imports/resolveImports.js';
import { openIndex } from '../src/index.js';
import { DEFAULT_CORPORA, sliceRoot } from './corpora.js';

const SAMPLES = Number(process.env.SAMPLES ?? 5);

interface LanguageCoverage {
  entries: number;
  resolved: number;
  /** Unresolved entries written as a relative path: a resolver's miss rather than a third-party module. */
  unresolvedRelative: number;
  unresolved: string[];
}

async function coverageOf(slice: string): Promise<void> {
  const root = sliceRoot(DEFAULT_CORPORA, slice);
  const cacheDir = mkdtempSync(join(tmpdir(), 'repomap-import-coverage-'));
  try {
    const index = await openIndex({ root, cacheDir, jobs: 1 });
    const files: ImportingFile[] = index.files
      .map(({ path, language }) => {
        const part = index.store.rankPart(path);
        return importingFileOf(path, language, part);
      })
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    await index.store.close();

    const started = performance.now();
    const { targets } = await resolveImports(root, files);
    const milliseconds = performance.now() - started;

    const byLanguage = new Map<string, LanguageCoverage>();
    tally(files, targets, byLanguage, '');
    const whole = await resolvedInWholePackages(root, files);
    console.log(`${slice}: ${files.length} files, imports resolved in ${milliseconds.toFixed(1)} ms (loading the resolvers included)`);
    for (const [language, coverage] of [...byLanguage].sort()) {
      if (coverage.entries === 0) continue;
      const inWhole = whole.get(language) ?? coverage;
      console.log(
        `  ${language}: ${coverage.entries} entries; resolved ${coverage.resolved} (${percent(coverage.resolved, coverage.entries)}), with the whole packages ${inWhole.resolved} (${percent(inWhole.resolved, coverage.entries)}); still unresolved ${inWhole.unresolved.length}, of which relative ${inWhole.unresolvedRelative}`,
      );
      // Evenly spaced, so a rerun shows the same ones.
      const step = Math.max(1, inWhole.unresolved.length / SAMPLES);
      for (let i = 0; i < Math.min(SAMPLES, inWhole.unresolved.length); i++) console.log(`    ${inWhole.unresolved[Math.floor(i * step)]}`);
    }
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

/** Adds each file's entries to its language's coverage; `prefix` is put back before the paths it shows. */
function tally(files: readonly ImportingFile[], targets: readonly (readonly string[])[][], byLanguage: Map<string, LanguageCoverage>, prefix: string): void {
  files.forEach((file, id) => {
    if (!file.language) return;
    const coverage = byLanguage.get(file.language) ?? { entries: 0, resolved: 0, unresolvedRelative: 0, unresolved: [] };
    byLanguage.set(file.language, coverage);
    file.imports.modules.forEach((module, entry) => {
      coverage.entries++;
      if (targets[id]![entry]!.length > 0) coverage.resolved++;
      else {
        if (module.startsWith('.')) coverage.unresolvedRelative++;
        const names = file.imports.names[entry]!;
        coverage.unresolved.push(`${prefix}${file.path}: ${module}${names.length > 0 ? ` (${names.join(', ')})` : ''}`);
      }
    });
  });
}

/**
 * Per language, how many of the slice's entries name a file when every file of the packages
 * the slice comes from counts as indexed: the slice's files keep their imports, the others
 * join without any.
 */
async function resolvedInWholePackages(root: string, files: readonly ImportingFile[]): Promise<Map<string, LanguageCoverage>> {
  // `<source root>\t<prefix in the slice, or .>\t<path below the source root>`
  const sources = new Map<string, { sourceRoot: string; prefix: string; tops: Set<string> }>();
  for (const line of readFileSync(`${root}.files`, 'utf8').split('\n')) {
    const [sourceRoot, prefix, path] = line.split('\t');
    if (!sourceRoot || !prefix || !path) continue;
    const key = `${sourceRoot}\t${prefix}`;
    const source = sources.get(key) ?? { sourceRoot, prefix, tops: new Set<string>() };
    sources.set(key, source);
    source.tops.add(path.split('/', 1)[0]!);
  }
  const byLanguage = new Map<string, LanguageCoverage>();
  for (const { sourceRoot, prefix, tops } of sources.values()) {
    const inSlice = prefix === '.' ? '' : `${prefix}/`;
    const sliceFiles = files
      .filter((file) => file.path.startsWith(inSlice) && tops.has(file.path.slice(inSlice.length).split('/', 1)[0]!))
      .map((file) => ({ ...file, path: file.path.slice(inSlice.length) }));
    const taken = new Set(sliceFiles.map((file) => file.path));
    const others = [...tops]
      .flatMap((top) => filesBelow(sourceRoot, top))
      .filter((path) => !taken.has(path))
      .map((path) => importingFileOf(path, null, undefined));
    const all = [...sliceFiles, ...others].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const { targets } = await resolveImports(sourceRoot, all);
    tally(all, targets, byLanguage, inSlice);
  }
  return byLanguage;
}

function percent(part: number, whole: number): string {
  return `${((100 * part) / whole).toFixed(1)}%`;
}

function filesBelow(root: string, folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.parentPath.includes('/node_modules'))
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1));
}

const slices = process.argv.length > 2 ? process.argv.slice(2) : ['python-500', 'js-500', 'ts-500', 'mixed-500'];
for (const slice of slices) await coverageOf(slice);
