/**
 * How often `repomap at` agrees with a type-aware tool on where a name is defined, per
 * repository: the TypeScript language service (this project's `typescript`, with the
 * repository's tsconfig.json or jsconfig.json when it has one) for TypeScript/JavaScript, jedi
 * (`Script.goto(follow_imports=True)` in the machine's python3, one process for the batch) for
 * Python.
 *
 *   node dist/bench/atAgreement.js --lang ts|py [--sample N] [--seed N] [--under PREFIX] [--misses FILE] DIR...
 *
 * Positions: reference occurrences the records tag (calls, `new`, types, bases, decorators,
 * imported names; not the identifier fallback), each at the first whole-word occurrence of its
 * name on its line; up to --sample (300) per repository, drawn with a fixed seed.
 * A position is judged when the oracle gives at least one definition inside the repository
 * (outside node_modules); the others (builtins, libraries) are excluded and counted.
 * Agreement (top-1): the first definition `at` gives has the path and line of one of the
 * oracle's. "Several" restricts to names with two or more definitions in the repository's
 * records. The baseline answers every position with the name's first definition by file rank
 * (the default ranking's), path and line breaking ties.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { type AtDefinition, type AtPosition, at } from '../src/navigate/at.js';
import { type RepoView, withRepoView } from '../src/navigate/repoView.js';
import { definerSlots, definitionsOfSlot, pathOfSlot } from '../src/rank/tableLookups.js';
import { seededRandom } from './seededRandom.js';

interface Options {
  lang: 'ts' | 'py';
  sample: number;
  seed: number;
  under: string;
  misses: string | null;
  dirs: string[];
}

interface Sampled extends Required<AtPosition> {
  name: string;
  kind: string;
}

interface OracleDefinition {
  path: string;
  line: number;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { lang: 'ts', sample: 300, seed: 25, under: '', misses: null, dirs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string => argv[++i] ?? '';
    if (arg === '--lang') options.lang = value() === 'py' ? 'py' : 'ts';
    else if (arg === '--sample') options.sample = Number(value());
    else if (arg === '--seed') options.seed = Number(value());
    else if (arg === '--under') options.under = value();
    else if (arg === '--misses') options.misses = value();
    else options.dirs.push(resolve(arg));
  }
  return options;
}

const LANGUAGES = { ts: new Set(['javascript', 'typescript', 'tsx']), py: new Set(['python']) };

function samplePositions(view: RepoView, options: Options): Sampled[] {
  const all: Sampled[] = [];
  for (const path of view.paths) {
    if (!path.startsWith(options.under)) continue;
    const record = view.record(path);
    if (!record?.language || !LANGUAGES[options.lang].has(record.language)) continue;
    const lines = view.sourceLines(path);
    if (!lines) continue;
    const seen = new Set<string>();
    record.references.names.forEach((name, at) => {
      const line = record.references.lines[at]!;
      const kind = record.references.kinds[at]!;
      if (line < 1 || kind === 'identifier' || !/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(name) || seen.has(`${line}:${name}`)) return;
      seen.add(`${line}:${name}`);
      const match = new RegExp(`(?<![\\p{L}\\p{N}_$])${name.replace(/\$/g, '\\$')}(?![\\p{L}\\p{N}_$])`, 'u').exec(lines[line - 1] ?? '');
      if (match) all.push({ path, line, column: match.index + 1, name, kind });
    });
  }
  const draw = seededRandom(options.seed);
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(draw() * (i + 1));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return all.slice(0, options.sample);
}

/** jedi's definitions, one python3 process for the batch; paths relative to the root. */
function jediOracle(root: string, positions: readonly Sampled[]): OracleDefinition[][] {
  const folder = mkdtempSync(join(tmpdir(), 'repomap-at-jedi-'));
  try {
    writeFileSync(join(folder, 'positions.json'), JSON.stringify(positions.map(({ path, line, column }) => [path, line, column - 1])));
    const script = `
import json, sys, jedi
root = sys.argv[1]
project = jedi.Project(root)
scripts = {}
out = []
for path, line, column in json.load(open(sys.argv[2])):
    try:
        if path not in scripts:
            scripts[path] = jedi.Script(path=root + '/' + path, project=project)
        names = scripts[path].goto(line, column, follow_imports=True)
        out.append([[str(n.module_path), n.line or 1] for n in names if n.module_path])
    except Exception:
        out.append([])
json.dump(out, sys.stdout)
`;
    const output = execFileSync('python3', ['-c', script, root, join(folder, 'positions.json')], { maxBuffer: 1 << 28, encoding: 'utf8' });
    return (JSON.parse(output) as [string, number][][]).map((found) => inRepository(root, found));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function inRepository(root: string, found: readonly [string, number][]): OracleDefinition[] {
  return found
    .map(([path, line]) => ({ path: relative(root, path).split('\\').join('/'), line }))
    .filter(({ path }) => !path.startsWith('..') && !path.includes('node_modules/'));
}

/** The TypeScript language service's definitions, with the repository's config when it has one. */
function typescriptOracle(root: string, positions: readonly Sampled[], files: readonly string[]): OracleDefinition[][] {
  const ts = createRequire(import.meta.url)('typescript') as typeof import('typescript');
  const configPath = ['tsconfig.json', 'jsconfig.json'].map((name) => join(root, name)).find((path) => existsSync(path));
  let compilerOptions: import('typescript').CompilerOptions = {
    allowJs: true,
    checkJs: false,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    jsx: ts.JsxEmit.Preserve,
  };
  if (configPath) {
    const config = ts.readConfigFile(configPath, ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(config.config ?? {}, ts.sys, root);
    compilerOptions = { ...parsed.options, allowJs: true, noEmit: true };
  }
  const scriptFiles = files.map((path) => join(root, path));
  const versions = new Map<string, string>();
  const host: import('typescript').LanguageServiceHost = {
    getCompilationSettings: () => compilerOptions,
    getScriptFileNames: () => scriptFiles,
    getScriptVersion: () => '1',
    getScriptSnapshot: (fileName) => {
      if (!ts.sys.fileExists(fileName)) return undefined;
      let text = versions.get(fileName);
      if (text === undefined) {
        text = readFileSync(fileName, 'utf8');
        versions.set(fileName, text);
      }
      return ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => root,
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
  return positions.map(({ path, line, column }) => {
    const fileName = join(root, path);
    const source = service.getProgram()?.getSourceFile(fileName);
    if (!source) return [];
    const offset = ts.getPositionOfLineAndCharacter(source, line - 1, column - 1);
    const definitions = service.getDefinitionAtPosition(fileName, offset) ?? [];
    return inRepository(
      root,
      definitions.map((definition) => {
        const target = service.getProgram()?.getSourceFile(definition.fileName);
        const at = target ? ts.getLineAndCharacterOfPosition(target, definition.textSpan.start).line + 1 : 1;
        return [definition.fileName, at] as [string, number];
      }),
    );
  });
}

interface Tally {
  judged: number;
  agreed: number;
  baseline: number;
}

const percent = (part: number, whole: number): string => (whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)}%`);

async function measure(root: string, options: Options): Promise<void> {
  const cacheDir = join(tmpdir(), `repomap-at-agreement-${root.replace(/[^\w]+/g, '_')}`);
  await withRepoView({ root, cacheDir, cwd: root }, async (view) => {
    const positions = samplePositions(view, options);
    const languageFiles = view.paths.filter((path) => LANGUAGES[options.lang].has(view.record(path)?.language ?? ''));
    const started = performance.now();
    const oracle = options.lang === 'py' ? jediOracle(root, positions) : typescriptOracle(root, positions, languageFiles);
    const oracleSeconds = (performance.now() - started) / 1000;
    const atStarted = performance.now();
    const answers = (await at(view, positions, { maxReferences: 0 })).positions;
    const atMilliseconds = performance.now() - atStarted;
    const tables = await view.tables();
    const overall: Tally = { judged: 0, agreed: 0, baseline: 0 };
    const several: Tally = { judged: 0, agreed: 0, baseline: 0 };
    const byHow = new Map<string, Tally>();
    const misses: string[] = [];
    let excluded = 0;
    for (let i = 0; i < positions.length; i++) {
      const position = positions[i]!;
      const expected = oracle[i]!;
      if (expected.length === 0) {
        excluded++;
        continue;
      }
      const top: AtDefinition | undefined = answers[i]!.definitions[0];
      const agrees = (found: { path: string; line: number } | undefined): boolean =>
        !!found && expected.some(({ path, line }) => path === found.path && line === found.line);
      const slots = definerSlots(tables, position.name);
      const definitionCount = slots.reduce((sum, slot) => sum + definitionsOfSlot(tables, slot).length, 0);
      const ranked = await Promise.all(
        slots.map(async (slot) => ({
          path: pathOfSlot(tables, slot),
          line: definitionsOfSlot(tables, slot)[0]!.line,
          rank: await view.fileRank(pathOfSlot(tables, slot)),
        })),
      );
      ranked.sort((a, b) => b.rank - a.rank || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      const agreed = agrees(top);
      const baseline = agrees(ranked[0]);
      const how = top?.how ?? 'none';
      const tallies = [overall, ...(definitionCount >= 2 ? [several] : [])];
      if (!byHow.has(how)) byHow.set(how, { judged: 0, agreed: 0, baseline: 0 });
      tallies.push(byHow.get(how)!);
      for (const tally of tallies) {
        tally.judged++;
        if (agreed) tally.agreed++;
        if (baseline) tally.baseline++;
      }
      if (!agreed) {
        misses.push(
          `${position.path}:${position.line}:${position.column} ${position.name} [${position.kind}] at=${top ? `${top.path}:${top.line} (${top.how})` : 'none'} oracle=${expected.map(({ path, line }) => `${path}:${line}`).join(',')}`,
        );
      }
    }
    console.log(
      `${root}: ${positions.length} positions sampled, ${excluded} excluded (oracle: nothing in the repository), ${overall.judged} judged; oracle ${oracleSeconds.toFixed(1)} s, at ${atMilliseconds.toFixed(0)} ms`,
    );
    console.log(
      `  overall: at ${overall.agreed}/${overall.judged} = ${percent(overall.agreed, overall.judged)}; baseline ${overall.baseline}/${overall.judged} = ${percent(overall.baseline, overall.judged)}`,
    );
    console.log(
      `  several definitions: at ${several.agreed}/${several.judged} = ${percent(several.agreed, several.judged)}; baseline ${several.baseline}/${several.judged} = ${percent(several.baseline, several.judged)}`,
    );
    for (const [how, tally] of [...byHow].sort()) console.log(`  how=${how}: ${tally.agreed}/${tally.judged} = ${percent(tally.agreed, tally.judged)}`);
    if (options.misses) writeFileSync(options.misses, `${misses.join('\n')}\n`, { flag: 'a' });
  });
}

const options = parseArgs(process.argv.slice(2));
if (options.dirs.length === 0) {
  console.error('usage: node dist/bench/atAgreement.js --lang ts|py [--sample N] [--seed N] [--under PREFIX] [--misses FILE] DIR...');
  process.exit(1);
}
for (const dir of options.dirs) await measure(dir, options);
