import type Parser from 'tree-sitter';
import { countFileTerms } from '../src/lexical/terms.js';
import { contentIdOf } from '../src/record/contentId.js';
import { countNames, type Definition, type FileRecord, type FileStamp, type Language, type References } from '../src/record/fileRecord.js';
import { Deadline, FileTimeoutError } from './deadline.js';
import { ChildWalker, docCommentOf, type HeadSpan, headSpanOf, signatureOf } from './definitionText.js';
import { type Grammar, grammarFor } from './grammars.js';
import { LineTable } from './lineTable.js';
import { type QueryCaptures, queryCaptures } from './queryCaptures.js';
import { rustImportPaths } from './rustUseTrees.js';
import { scopeLinesOf } from './scopeHeaders.js';
import { type DefinitionSpan, signatureLinesOf } from './signatureLines.js';
import { type TreeSitterGate, UNGUARDED } from './treeSitterGate.js';

/** The longest line text a record keeps; renderings cut lines far shorter. */
const MAX_STORED_LINE = 1000;

/** A file's text, with the stamp of the file it was read from. */
export interface SourceFile extends FileStamp {
  path: string;
  language: Language;
  text: string;
  /** The UTF-8 bytes `text` was decoded from. */
  bytes: Uint8Array;
}

type CaptureRole =
  | { role: 'definition-name'; kind: string }
  | { role: 'definition' }
  | { role: 'reference-name'; kind: string }
  | { role: 'import' }
  | { role: 'import-name' }
  | { role: 'import-tree' }
  | { role: 'package' }
  | { role: 'ignored' };

const roleCache = new Map<string, CaptureRole>();

/** `name.definition.function` → a function definition's name, and so on; parsed once per name. */
function roleOf(captureName: string): CaptureRole {
  let role = roleCache.get(captureName);
  if (role) return role;
  const [first, second, ...rest] = captureName.split('.');
  if (first === 'name' && second === 'definition') role = { role: 'definition-name', kind: rest.join('.') || 'definition' };
  else if (first === 'name' && second === 'reference') role = { role: 'reference-name', kind: rest.join('.') || 'reference' };
  else if (first === 'definition') role = { role: 'definition' };
  else if (first === 'import' && second === 'name') role = { role: 'import-name' };
  else if (first === 'import' && second === 'tree') role = { role: 'import-tree' };
  else if (first === 'import') role = { role: 'import' };
  else if (first === 'package') role = { role: 'package' };
  else role = { role: 'ignored' };
  roleCache.set(captureName, role);
  return role;
}

interface FoundDefinition {
  start: number;
  end: number;
  row: number;
  definitionNode: Parser.SyntaxNode | null;
  kind: string;
}

/**
 * Parses one file and runs its language's tag query: one tag per captured name node (a node
 * captured by several patterns counts once), 1-based lines. Throws FileTimeoutError when the
 * work takes longer than `timeoutMs`. `gate` brackets every use of tree-sitter, for the worker's
 * coordinator (see treeSitterGate.ts).
 */
export function extractRecord(file: SourceFile, timeoutMs: number, gate: TreeSitterGate = UNGUARDED): FileRecord {
  gate.enter();
  try {
    const grammar = grammarFor(file.language);
    // The clock starts after the grammar's first load, which is no fault of the file.
    return recordOf(file, grammar, Deadline.after(timeoutMs));
  } finally {
    gate.leave();
  }
}

/** What a file's tag query found, before lines are looked up. */
interface FoundTags {
  definitions: FoundDefinition[];
  /** Each reference's name span and kind, in match order. */
  referenceStarts: number[];
  referenceEnds: number[];
  referenceRows: number[];
  referenceKinds: string[];
  /** Entries by module: a module imported twice is one entry with the names of both. */
  importNames: Map<string, Set<string>>;
  /** Per entry, the 0-based row where its module is first written. */
  importRows: Map<string, number>;
  packageName: string;
}

/**
 * Each captured node is asked for its offsets once: every other tree-sitter call crosses into
 * native code, and a file has thousands of references. Every stage answers to `deadline`.
 */
function recordOf(file: SourceFile, grammar: Grammar, deadline: Deadline): FileRecord {
  const tree = parseWithDeadline(grammar, file.text, deadline);
  const text = file.text;
  const lines = new LineTable(text);

  const captures = queryCaptures(grammar.tagsQuery, tree, deadline.microsLeft());
  // A query cut short by its timeout returns what it found so far: only the clock tells.
  deadline.check();
  const found = readMatches(captures, text, deadline);
  const { definitions, importNames, importRows, packageName } = found;

  definitions.sort((a, b) => a.start - b.start);
  const definitionRows = definitions.map((definition) => definition.row);
  const scopeLines = scopeLinesOf(tree, lines, definitionRows, deadline);
  const walker = new ChildWalker(tree);
  const heads = definitions.map((definition): HeadSpan | null => {
    deadline.check();
    return definition.definitionNode ? headSpanOf(definition.definitionNode, text, file.language, walker) : null;
  });
  const spans = definitions.map((definition, i): DefinitionSpan => {
    const node = definition.definitionNode;
    const head = heads[i];
    return {
      start: node ? node.startIndex : definition.start,
      end: node ? node.endIndex : definition.end,
      headStart: head ? head.start : definition.start,
      headEnd: head ? head.end : definition.end,
      nameRow: definitionRows[i]!,
    };
  });
  const signatureLines = signatureLinesOf(tree, lines, spans, deadline);
  const records: Definition[] = definitions.map((definition, i) => {
    const row = definitionRows[i]!;
    const node = definition.definitionNode;
    return {
      name: text.slice(definition.start, definition.end),
      kind: definition.kind,
      line: row + 1,
      endLine: (node ? lines.rowOf(spans[i]!.end) : row) + 1,
      scopeLines: scopeLines[i]!,
      signature: signatureOf(heads[i] ?? null, text, lines.lineText(row)),
      doc: node ? docCommentOf(node, file.language, lines, deadline) : '',
    };
  });

  let references: References = { names: [], lines: [], kinds: [] };
  if (found.referenceStarts.length > 0) {
    references = referencesInOrder(found, text, deadline);
  } else if (records.length > 0) {
    // aider's fallback: a file that defines but references nothing counts every identifier.
    const captures = grammar.identsQuery().captures(tree.rootNode, { timeoutMicros: deadline.microsLeft() });
    deadline.check();
    for (const capture of captures) {
      deadline.step();
      references.names.push(capture.node.text);
      references.lines.push(-1);
      references.kinds.push('identifier');
    }
  }

  const signatures = signaturesByLine(records, signatureLines, deadline);
  const { lineNumbers, lineTexts } = renderableLines(records, signatures, lines, deadline);
  return {
    path: file.path,
    content: contentIdOf(file.bytes),
    mtimeMs: file.mtimeMs,
    size: file.size,
    ctimeMs: file.ctimeMs,
    ino: file.ino,
    language: file.language,
    lineCount: lines.lineCount,
    definitions: records,
    references,
    referenceCounts: countNames(references.names),
    imports: {
      modules: [...importNames.keys()],
      names: [...importNames.values()].map((names) => [...names]),
      lines: [...importNames.keys()].map((module) => importRows.get(module)! + 1),
    },
    packageName,
    terms: countFileTerms(file.path, file.bytes),
    lineNumbers,
    lineTexts,
    signatures,
    skipped: null,
  };
}

/**
 * The tags of a file's matches. Its own function, not part of recordOf: the loop runs once per
 * match, and V8 optimizes a small hot function long before a big one that runs once per file.
 */
function readMatches(captures: QueryCaptures, text: string, deadline: Deadline): FoundTags {
  const found: FoundTags = {
    definitions: [],
    referenceStarts: [],
    referenceEnds: [],
    referenceRows: [],
    referenceKinds: [],
    importNames: new Map(),
    importRows: new Map(),
    packageName: '',
  };
  const seenDefinitionNames = new Set<number>();
  const seenReferenceNames = new Set<number>();
  const { matchEnds, names, starts, rows } = captures;
  const textOf = (capture: number) => text.slice(starts[capture]!, captures.endOf(capture));
  for (let m = 0, capture = 0; m < matchEnds.length; m++) {
    deadline.step();
    let nameCapture = -1;
    let definitionCapture = -1;
    let kind = '';
    let isDefinition = false;
    let importModule: string | null = null;
    let importRow = 0;
    // Made only for the few matches that take names: the rest are most of a file's matches.
    let takenNames: string[] | null = null;
    for (const end = matchEnds[m]!; capture < end; capture++) {
      const role = roleOf(names[capture]!);
      switch (role.role) {
        case 'definition-name':
          nameCapture = capture;
          kind = role.kind;
          isDefinition = true;
          break;
        case 'reference-name':
          nameCapture = capture;
          kind = role.kind;
          break;
        case 'definition':
          definitionCapture = capture;
          break;
        case 'import':
          importModule = unquote(textOf(capture));
          importRow = rows[capture]!;
          break;
        case 'import-name':
          takenNames ??= [];
          takenNames.push(textOf(capture));
          break;
        case 'import-tree':
          // A whole use tree, one entry per path it names (only Rust has them).
          for (const path of rustImportPaths(captures.node(capture), deadline)) {
            if (found.importNames.has(path)) continue;
            found.importNames.set(path, new Set());
            found.importRows.set(path, rows[capture]!);
          }
          break;
        case 'package':
          found.packageName ||= textOf(capture);
          break;
        case 'ignored':
          break;
      }
    }
    if (importModule !== null) {
      let entryNames = found.importNames.get(importModule);
      if (!entryNames) {
        entryNames = new Set<string>();
        found.importNames.set(importModule, entryNames);
        found.importRows.set(importModule, importRow);
      }
      if (takenNames) for (const name of takenNames) entryNames.add(name);
    }
    if (nameCapture < 0) continue;
    const start = starts[nameCapture]!;
    const end = captures.endOf(nameCapture);
    // Nested nodes can share a start (`os` in `os.path`): the span tells them apart.
    const key = start * 0x10000 + Math.min(end - start, 0xffff);
    if (isDefinition) {
      if (seenDefinitionNames.has(key)) continue;
      seenDefinitionNames.add(key);
      const definitionNode = definitionCapture < 0 ? null : captures.node(definitionCapture);
      found.definitions.push({ start, end, row: rows[nameCapture]!, definitionNode, kind });
    } else {
      if (seenReferenceNames.has(key)) continue;
      seenReferenceNames.add(key);
      found.referenceStarts.push(start);
      found.referenceEnds.push(end);
      found.referenceRows.push(rows[nameCapture]!);
      found.referenceKinds.push(kind);
    }
  }
  return found;
}

/** The references found, by position in the file (a function of its own for the reason readMatches is). */
function referencesInOrder(found: FoundTags, text: string, deadline: Deadline): References {
  const { referenceStarts, referenceEnds, referenceRows, referenceKinds } = found;
  const references: References = { names: [], lines: [], kinds: [] };
  const order = referenceStarts.map((_, i) => i).sort((a, b) => referenceStarts[a]! - referenceStarts[b]!);
  for (const i of order) {
    deadline.step();
    references.names.push(text.slice(referenceStarts[i]!, referenceEnds[i]!));
    references.lines.push(referenceRows[i]! + 1);
    references.kinds.push(referenceKinds[i]!);
  }
  return references;
}

function parseWithDeadline(grammar: Grammar, text: string, deadline: Deadline): Parser.Tree {
  grammar.parser.reset();
  // Checked inside tree-sitter: a progress callback would cross into JavaScript every 100 steps
  // (7% of the parse on mixed-500).
  grammar.parser.setTimeoutMicros(deadline.microsLeft());
  const tree = grammar.parser.parse(text);
  if (!tree) throw new FileTimeoutError();
  return tree;
}

/**
 * Each definition line whose signature lines are more than itself, with those of every
 * definition on it. Definitions come by position, so those on one line are neighbours, and each
 * one's signature lines come ascending, its own line among them (see signatureLinesOf): a line
 * with one such definition takes its lines as they are, and no line needs a Set.
 */
function signaturesByLine(definitions: readonly Definition[], signatureLines: readonly number[][], deadline: Deadline): FileRecord['signatures'] {
  const signatures: FileRecord['signatures'] = [];
  for (let first = 0; first < definitions.length; ) {
    const line = definitions[first]!.line;
    let end = first + 1;
    while (end < definitions.length && definitions[end]!.line === line) end++;
    let shownOnLine: number[] | null = null;
    for (let i = first; i < end; i++) {
      deadline.step();
      const shown = signatureLines[i]!;
      if (shown.length === 1) continue;
      shownOnLine = shownOnLine === null ? shown : [...new Set([...shownOnLine, ...shown])].sort((a, b) => a - b);
    }
    if (shownOnLine !== null) signatures.push([line, shownOnLine]);
    first = end;
  }
  return signatures;
}

/** Definition and scope lines with their neighbours, and signature lines: what a rendering may show or test. */
function renderableLines(
  definitions: Definition[],
  signatures: FileRecord['signatures'],
  lines: LineTable,
  deadline: Deadline,
): { lineNumbers: number[]; lineTexts: string[] } {
  const lineCount = lines.lineCount;
  const wanted = new Set<number>();
  const want = (line: number) => {
    deadline.step();
    for (let l = line - 1; l <= line + 1; l++) if (l >= 1 && l <= lineCount) wanted.add(l);
  };
  for (const definition of definitions) {
    want(definition.line);
    for (const line of definition.scopeLines) want(line);
  }
  for (const [, signatureLines] of signatures) {
    for (const line of signatureLines) {
      deadline.step();
      wanted.add(line);
    }
  }
  const lineNumbers = [...wanted].sort((a, b) => a - b);
  const lineTexts = lineNumbers.map((line) => lines.lineText(line - 1).slice(0, MAX_STORED_LINE));
  return { lineNumbers, lineTexts };
}

function unquote(text: string): string {
  const first = text[0];
  if (text.length >= 2 && (first === '"' || first === "'" || first === '`') && text[text.length - 1] === first) {
    return text.slice(1, -1);
  }
  return text;
}
