import { DEFAULTS } from '../defaults.js';
import { languageOf } from '../discover/languages.js';
import { NoMapError } from '../errors.js';
import { checkOutlineOptions } from '../options/checkOptions.js';
import { fileRoleOf } from '../rank/fileRoles.js';
import type { Definition } from '../record/fileRecord.js';
import type { Language } from '../record/languageNames.js';
import { OUTLINE_FORMATS } from '../render/formats.js';
import type { Outline, OutlineDefinition, OutlineDetail, OutlineEntry, OutlineFile, OutlineFolder, OutlineOptions } from './outlineTree.js';
import type { RepoView } from './repoView.js';

/**
 * `repomap outline [PATH]`: the tree of files under PATH with each file's definitions as
 * signatures, nested by containment (methods under their classes), from the stored records
 * alone. Under a budget the tree comes first, then definitions in the order of their files'
 * ranks; what does not fit is counted, never dropped silently.
 */

/** A listed file, its definitions decoded only once some are shown. */
interface ListedFile {
  path: string;
  language: Language | null;
  /** How many definitions it has (0 with detail `files`). */
  count: number;
  nested(): Nested;
}

/** A file's definitions as an outline shows them. */
interface Nested {
  /** In pre-order (line order, containers first), each holding all it contains. */
  all: OutlineDefinition[];
  /** Per definition of `all`, its container's index there, or -1. */
  parents: number[];
  /** The top-level ones: what is shown when nothing is cut. */
  roots: OutlineDefinition[];
}

/** A file below --depth, and its folder at the depth, where it is counted. */
interface DeepFile {
  path: string;
  folder: string;
}

/** What is shown: files, and how many of each file's definitions (a prefix in pre-order). */
interface Shown {
  files: ReadonlySet<string>;
  definitions: ReadonlyMap<string, number>;
}

export async function outline(view: RepoView, options: OutlineOptions = {}): Promise<Outline> {
  checkOutlineOptions(options);
  const detail = options.detail ?? 'signatures';
  const formatName = options.format ?? 'text';
  const format = await OUTLINE_FORMATS[formatName].load();
  const path = options.path === undefined ? '' : view.repoEntry(options.path, 'PATH');
  const under = path === '' ? view.paths : view.paths.filter((file) => file === path || file.startsWith(`${path}/`));
  const isFile = under.length === 1 && under[0] === path;
  const keepTests = options.tests === true || isFile || fileRoleOf(`${path}/`) === 'test';
  const wanted = options.languages === undefined ? null : new Set<Language | null>(options.languages);
  const kept = under.filter((file) => (keepTests || fileRoleOf(file) !== 'test') && (wanted === null || wanted.has(languageOf(file))));
  if (kept.length === 0) throw new NoMapError(nothingUnder(path, under, keepTests, options));

  const depth = options.depth ?? Number.POSITIVE_INFINITY;
  const prefix = path === '' ? '' : `${path}/`;
  const tooDeep = (file: string) => depth !== Number.POSITIVE_INFINITY && !isFile && folderLevel(file.slice(prefix.length)) > depth;
  const budget = options.maxTokens === undefined ? DEFAULTS.outlineTokens : options.maxTokens;
  // Unbudgeted, every definition is shown: decoded now, with no header read first.
  const files: ListedFile[] = kept.filter((file) => !tooDeep(file)).map((file) => listedFile(view, file, detail, budget === null));
  // Each file below the depth is counted in its folder at the depth.
  const deepFiles = kept
    .filter(tooDeep)
    .map((file) => ({ path: file, folder: [path, ...file.slice(prefix.length).split('/').slice(0, depth)].filter(Boolean).join('/') }));

  const render = (shown: Shown): Candidate => {
    const tree = isFile ? fileEntry(files[0]!, shown.definitions.get(path) ?? 0) : folderTree(path, files, deepFiles, shown);
    return { shown, tree, lines: format.lines(tree, detail) };
  };
  const total = files.reduce((sum, file) => sum + file.count, 0);
  const everything: Shown = { files: new Set(files.map((file) => file.path)), definitions: new Map(files.map((file) => [file.path, file.count])) };
  let shown: Candidate;
  let tokens: number | null = null;
  if (budget === null) shown = render(everything);
  else {
    const counter = new LineCounter(view);
    const cut = await cutToBudget(view, files, total, budget, async (within, exact) => {
      const candidate = render(within);
      // Each line costs a token at least: one past the budget by its lines alone is not counted.
      return { ...candidate, tokens: !exact && candidate.lines.length > budget ? candidate.lines.length : await counter.total(candidate.lines) };
    });
    if ('smallest' in cut)
      throw new NoMapError(`no outline of ${path === '' ? 'the repository' : `'${path}'`} fits in ${budget} tokens (the smallest takes ${cut.smallest})`);
    ({ tokens, ...shown } = cut);
  }
  const counts = countShown(files, shown.shown, isFile);
  return {
    path,
    detail,
    format: formatName,
    tree: shown.tree,
    files: { shown: counts.files, total: kept.length },
    definitions: detail === 'files' ? null : { shown: counts.definitions, total },
    text: `${shown.lines.join('\n')}\n`,
    tokens,
    budget,
  };
}

function listedFile(view: RepoView, path: string, detail: OutlineDetail, decodeNow: boolean): ListedFile {
  let decoded: Nested | null = decodeNow && detail !== 'files' ? nested(view.definitions(path) ?? [], detail) : null;
  return {
    path,
    language: languageOf(path),
    count: detail === 'files' ? 0 : (decoded?.all.length ?? view.definitionCount(path)),
    nested: () => {
      decoded ??= nested(view.definitions(path) ?? [], detail);
      return decoded;
    },
  };
}

/** Why nothing is left to outline, as the one line of an exit 2. */
function nothingUnder(path: string, under: readonly string[], keepTests: boolean, options: OutlineOptions): string {
  const where = path === '' ? 'the repository' : `'${path}'`;
  if (under.length === 0) return `${where} holds no indexed file`;
  const tests = keepTests ? 0 : under.filter((file) => fileRoleOf(file) === 'test').length;
  const reasons = [
    options.languages ? `none in --lang ${options.languages.join(', ')}` : '',
    tests > 0 ? `${tests} left out as tests (--tests keeps them)` : '',
  ];
  return `none of the ${under.length} indexed ${under.length === 1 ? 'file' : 'files'} under ${where} is left to outline (${reasons.filter(Boolean).join('; ')})`;
}

/** Folders between PATH and a file (its path relative to PATH): 0 for a file directly in PATH. */
function folderLevel(relativePath: string): number {
  let level = 0;
  for (let at = relativePath.indexOf('/'); at !== -1; at = relativePath.indexOf('/', at + 1)) level++;
  return level;
}

/** Definitions in pre-order, each under its innermost container; ties keep the record's order. */
function nested(definitions: readonly Definition[], detail: OutlineDetail): Nested {
  const order = definitions.map((_, index) => index);
  order.sort((a, b) => definitions[a]!.line - definitions[b]!.line || definitions[b]!.endLine - definitions[a]!.endLine || a - b);
  const all: OutlineDefinition[] = [];
  const parents: number[] = [];
  const roots: OutlineDefinition[] = [];
  const open: number[] = [];
  for (const index of order) {
    const { name, kind, line, endLine, signature, doc } = definitions[index]!;
    const entry: OutlineDefinition = { name, kind, line, endLine, signature, doc: detail === 'full' ? doc : '', children: [] };
    while (open.length > 0 && !contains(all[open.at(-1)!]!, entry)) open.pop();
    const parent = open.at(-1) ?? -1;
    (parent === -1 ? roots : all[parent]!.children).push(entry);
    all.push(entry);
    parents.push(parent);
    open.push(all.length - 1);
  }
  return { all, parents, roots };
}

/** Whether `outer` spans `inner` and more: two definitions of the same lines are siblings. */
function contains(outer: OutlineDefinition, inner: OutlineDefinition): boolean {
  return outer.line <= inner.line && inner.endLine <= outer.endLine && (outer.line < inner.line || inner.endLine < outer.endLine);
}

/**
 * PATH's folder as shown: the shown files in their folders, every other file counted in the
 * deepest folder shown above it. While every listed file is shown, so is each folder at the
 * depth with the count of its deeper files; once the budget drops files, those counts go up too.
 */
function folderTree(path: string, files: readonly ListedFile[], deepFiles: readonly DeepFile[], shown: Shown): OutlineFolder {
  const root: OutlineFolder = { type: 'folder', path, entries: [], moreFiles: 0 };
  const folders = new Map<string, OutlineFolder>([[path, root]]);
  const folderAt = (folderPath: string): OutlineFolder => {
    let folder = folders.get(folderPath);
    if (!folder) {
      folder = { type: 'folder', path: folderPath, entries: [], moreFiles: 0 };
      folders.set(folderPath, folder);
      folderAt(parentOf(folderPath)).entries.push(folder);
    }
    return folder;
  };
  const allShown = shown.files.size === files.length;
  // Both lists are in path order, and so, merged, is every folder's list of entries.
  let deep = 0;
  for (const file of files) {
    for (; allShown && deep < deepFiles.length && deepFiles[deep]!.path < file.path; deep++) folderAt(deepFiles[deep]!.folder).moreFiles++;
    if (shown.files.has(file.path)) folderAt(parentOf(file.path)).entries.push(fileEntry(file, shown.definitions.get(file.path) ?? 0));
  }
  if (allShown) for (; deep < deepFiles.length; deep++) folderAt(deepFiles[deep]!.folder).moreFiles++;
  else {
    const deepestShown = (folderPath: string): OutlineFolder => {
      for (let at = folderPath; ; at = parentOf(at)) {
        const folder = folders.get(at);
        if (folder) return folder;
      }
    };
    for (const file of files) if (!shown.files.has(file.path)) deepestShown(parentOf(file.path)).moreFiles++;
    for (const file of deepFiles) deepestShown(file.folder).moreFiles++;
  }
  return root;
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** A file with the first `shown` of its definitions (in pre-order): copies, unless all are; none decoded when none is shown. */
function fileEntry(file: ListedFile, shown: number): OutlineFile {
  const { path, language, count } = file;
  if (shown === 0) return { type: 'file', path, language, definitions: [], moreDefinitions: count };
  const { all, parents, roots } = file.nested();
  const moreDefinitions = all.length - shown;
  if (moreDefinitions === 0) return { type: 'file', path, language, definitions: roots, moreDefinitions };
  const copies: OutlineDefinition[] = [];
  const definitions: OutlineDefinition[] = [];
  for (let i = 0; i < shown; i++) {
    const copy = { ...all[i]!, children: [] };
    copies.push(copy);
    const parent = parents[i]!;
    (parent === -1 ? definitions : copies[parent]!.children).push(copy);
  }
  return { type: 'file', path, language, definitions, moreDefinitions };
}

/** Files and definitions shown. */
function countShown(files: readonly ListedFile[], shown: Shown, isFile: boolean): { files: number; definitions: number } {
  let shownFiles = 0;
  let definitions = 0;
  for (const file of files) {
    if (!isFile && !shown.files.has(file.path)) continue;
    shownFiles++;
    definitions += shown.definitions.get(file.path) ?? 0;
  }
  return { files: shownFiles, definitions };
}

interface Candidate {
  shown: Shown;
  tree: OutlineEntry;
  lines: string[];
}

type Counted = Candidate & { tokens: number };

/**
 * The largest outline within the budget: everything, when it fits; else, when the tree fits,
 * every file with the first definitions in rank order (files by the default ranking, each one's
 * definitions in its order); else the first files in rank order with no definitions; when not
 * even a count of the files fits, what that takes. Definitions are searched from a few up (see
 * mostFitting), so only the files of about those shown are decoded; files, by halving. What is
 * returned was counted and fits.
 */
async function cutToBudget(
  view: RepoView,
  files: readonly ListedFile[],
  total: number,
  budget: number,
  attempt: (shown: Shown, exact?: boolean) => Promise<Counted>,
): Promise<Counted | { smallest: number }> {
  const allFiles = new Set(files.map((file) => file.path));
  const tree = await attempt({ files: allFiles, definitions: new Map() });
  // Everything is tried at once only when the room left is ample (a definition's line rarely costs under 4 tokens); else found by the search.
  if (tree.tokens <= budget && 4 * total <= budget - tree.tokens) {
    const everything = await attempt({ files: allFiles, definitions: new Map(files.map((file) => [file.path, file.count])) });
    if (everything.tokens <= budget) return everything;
  }
  const ranks = new Map<string, number>();
  for (const file of files) ranks.set(file.path, await view.fileRank(file.path));
  const ranked = [...files].sort((a, b) => ranks.get(b.path)! - ranks.get(a.path)! || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (tree.tokens <= budget) {
    const firstDefinitions = (count: number): Map<string, number> => {
      const shown = new Map<string, number>();
      for (const file of ranked) {
        if (count <= 0) break;
        const take = Math.min(count, file.count);
        shown.set(file.path, take);
        count -= take;
      }
      return shown;
    };
    return mostFitting(tree, total, budget, true, (count) => attempt({ files: allFiles, definitions: firstDefinitions(count) }));
  }
  const none = await attempt({ files: new Set(), definitions: new Map() }, true);
  if (none.tokens > budget) return { smallest: none.tokens };
  return mostFitting(none, ranked.length, budget, false, (count) =>
    attempt({ files: new Set(ranked.slice(0, count).map((file) => file.path)), definitions: new Map() }),
  );
}

/**
 * The candidate of the most of `total` steps that fits, `fitting` being that of none: a binary
 * search, from the top; with `fromBelow`, from a few steps up, each next guess spending the room
 * left at the cost per step so far, until one does not fit, then a binary search below it.
 * Either way what it returns was counted and fits.
 */
async function mostFitting(
  fitting: Counted,
  total: number,
  budget: number,
  fromBelow: boolean,
  attempt: (count: number) => Promise<Counted>,
): Promise<Counted> {
  let best = fitting;
  let low = 0;
  let high = total + 1;
  if (fromBelow) {
    for (let count = Math.min(total, FIRST_GUESS); count > low; ) {
      const candidate = await attempt(count);
      if (candidate.tokens > budget) {
        high = count;
        break;
      }
      best = candidate;
      low = count;
      const perStep = Math.max(1, (candidate.tokens - fitting.tokens) / count);
      count = Math.min(total, count + Math.max(1, Math.floor((budget - candidate.tokens) / perStep)));
    }
  }
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    const candidate = await attempt(middle);
    if (candidate.tokens <= budget) {
      best = candidate;
      low = middle;
    } else {
      high = middle;
    }
  }
  return best;
}

/** The first number of definitions tried: few enough to decode little, enough to tell what one costs. */
const FIRST_GUESS = 16;

/** Lines' counts, each distinct line counted once: a rendering's count is the sum of its lines' (see OutlineFormat). */
class LineCounter {
  /** By line, without its newline. */
  private readonly counts = new Map<string, number>();

  constructor(private readonly view: RepoView) {}

  async total(lines: readonly string[]): Promise<number> {
    const fresh = new Set<string>();
    for (const line of lines) if (!this.counts.has(line)) fresh.add(line);
    if (fresh.size > 0) {
      const lines = [...fresh];
      const counts = await this.view.lineTokens(lines.map((line) => `${line}\n`));
      for (const [i, line] of lines.entries()) this.counts.set(line, counts[i]!);
    }
    let sum = 0;
    for (const line of lines) sum += this.counts.get(line)!;
    return sum;
  }
}
