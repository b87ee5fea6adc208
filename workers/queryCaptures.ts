import type Parser from 'tree-sitter';
import { type NodeClass, treeSitterModules } from '../src/treeSitterGrammars.js';

/**
 * A tag query's captures, match by match, with each captured node's start offset and row at
 * hand: most captures are reference names, which need only those and their end, so a node
 * object is made only for the captures asked for one.
 */
export interface QueryCaptures {
  /** Captures over all matches, in match order. */
  readonly count: number;
  /** One past the last capture of each match. */
  readonly matchEnds: Int32Array;
  readonly names: readonly string[];
  /** UTF-16 offset of each captured node's start. */
  readonly starts: Int32Array;
  /** 0-based row of each captured node's start. */
  readonly rows: Int32Array;
  /** UTF-16 offset of a captured node's end (a call into tree-sitter). */
  endOf(capture: number): number;
  node(capture: number): Parser.SyntaxNode;
}

/** What node-tree-sitter (0.25) sends across per node: its id (two words) and TSNode's context (start byte, row, column, alias). */
const NODE_FIELDS = 6;
const START_BYTE = 2;
const START_ROW = 3;
/** The binding's symbol for an error node, which has no subclass of its own. */
const ERROR_SYMBOL = 0xffff;
const NO_LIMIT = 0xffffffff;

interface Binding {
  nodeTransferArray: Uint32Array;
  NodeMethods: { endIndex(tree: Parser.Tree): number };
  Query: { prototype: object };
}

type RawMatches = (
  this: Parser.Query,
  tree: Parser.Tree,
  startRow: number,
  startColumn: number,
  endRow: number,
  endColumn: number,
  startIndex: number,
  endIndex: number,
  matchLimit: number,
  maxStartDepth: number,
  timeoutMicros: number,
) => [Array<number | string>, Array<number | object | null>];

type Predicate = (captures: Array<{ name: string; node: Parser.SyntaxNode }>) => boolean;

interface Internals {
  binding: Binding;
  rawMatches: RawMatches;
  SyntaxNode: NodeClass;
}

/**
 * The binding's own query call and node transfer buffer, which its JavaScript wrapper reads to
 * make a node object per capture (an object, a BigInt id and a property definition each; reading
 * the buffer instead saved 2.4% of java-500's cold-index instructions); null when this binding is
 * not laid out as expected.
 */
function bindingInternals(): Internals | null {
  const modules = treeSitterModules();
  if (modules === null) return null;
  const binding = modules.binding as unknown as Binding;
  const rawMatches = Reflect.get(modules.treeSitter.Query.prototype, '_matches');
  const usable =
    binding.Query === modules.treeSitter.Query &&
    binding.nodeTransferArray instanceof Uint32Array &&
    typeof binding.NodeMethods?.endIndex === 'function' &&
    typeof rawMatches === 'function';
  return usable ? { binding, rawMatches, SyntaxNode: modules.treeSitter.SyntaxNode } : null;
}

let internals: Internals | null | undefined;
/** Whether the raw reading agreed with the binding's own node getters on the first capture read in this thread. */
let rawReadingChecked = false;

/** The captures of `query`'s matches over the whole tree, as the binding's `matches` would give them. */
export function queryCaptures(query: Parser.Query, tree: Parser.Tree, timeoutMicros: number): QueryCaptures {
  internals ??= bindingInternals();
  if (internals === null) return capturesFromMatches(query, tree, timeoutMicros);
  const captures = rawCaptures(internals, query, tree, timeoutMicros);
  if (rawReadingChecked || captures.count === 0) return captures;
  const node = captures.node(0);
  if (node.startIndex === captures.starts[0] && node.startPosition.row === captures.rows[0] && node.endIndex === captures.endOf(0)) {
    rawReadingChecked = true;
    return captures;
  }
  internals = null;
  return capturesFromMatches(query, tree, timeoutMicros);
}

/** Whether this thread reads captures from the binding's buffer (known once a query has captured something). */
export function readsRawCaptures(): boolean {
  return internals !== null && rawReadingChecked;
}

/** The same captures read through the binding's public `matches`: a node object per capture. */
export function capturesFromMatches(query: Parser.Query, tree: Parser.Tree, timeoutMicros: number): QueryCaptures {
  const matches = query.matches(tree.rootNode, { timeoutMicros });
  const nodes: Parser.SyntaxNode[] = [];
  const names: string[] = [];
  const matchEnds = new Int32Array(matches.length);
  for (let m = 0; m < matches.length; m++) {
    for (const capture of matches[m]!.captures) {
      nodes.push(capture.node);
      names.push(capture.name);
    }
    matchEnds[m] = nodes.length;
  }
  return {
    count: nodes.length,
    matchEnds,
    names,
    starts: Int32Array.from(nodes, (node) => node.startIndex),
    rows: Int32Array.from(nodes, (node) => node.startPosition.row),
    endOf: (capture) => nodes[capture]!.endIndex,
    node: (capture) => nodes[capture]!,
  };
}

/** Reads the binding's flat answer: per match its pattern then its capture names, and per captured node its symbol, its fields in the transfer buffer. */
function rawCaptures({ binding, rawMatches, SyntaxNode }: Internals, query: Parser.Query, tree: Parser.Tree, timeoutMicros: number): QueryCaptures {
  // The native call reads the node to search from the transfer buffer.
  const root = tree.rootNode as unknown as ArrayLike<number>;
  for (let i = 0; i < NODE_FIELDS; i++) binding.nodeTransferArray[i] = root[i]!;
  const [flat, symbols] = rawMatches.call(query, tree, 0, 0, 0, 0, 0, 0, NO_LIMIT, NO_LIMIT, timeoutMicros);
  const transferred = binding.nodeTransferArray;
  const predicates = (query as unknown as { predicates: readonly Predicate[][] }).predicates;

  const fields = nodeFieldsOf(symbols, transferred);
  const nodeAt = (at: number): Parser.SyntaxNode => {
    const symbol = symbols[at];
    if (typeof symbol === 'object' && symbol !== null) return symbol as Parser.SyntaxNode;
    const language = (tree as unknown as { language: { nodeSubclasses: Array<typeof SyntaxNode> } }).language;
    const NodeClass = symbol === ERROR_SYMBOL ? SyntaxNode : language.nodeSubclasses[symbol as number]!;
    const node = new NodeClass(tree);
    const slots = node as unknown as number[];
    for (let k = 0; k < NODE_FIELDS; k++) slots[k] = fields[at * NODE_FIELDS + k]!;
    return node;
  };

  // Kept: the captures of matches whose predicates hold (`at` indexes `symbols`, `kept` the answer).
  const keptAt = new Int32Array(symbols.length);
  const names: string[] = [];
  const matchEnds: number[] = [];
  for (let i = 0, at = 0; i < flat.length; ) {
    const pattern = flat[i++] as number;
    const first = names.length;
    const firstAt = at;
    while (i < flat.length && typeof flat[i] === 'string') {
      keptAt[names.length] = at++;
      names.push(flat[i++] as string);
    }
    const tests = predicates[pattern]!;
    if (tests.length > 0) {
      const captures = names.slice(first).map((name, k) => ({ name, node: nodeAt(firstAt + k) }));
      if (!tests.every((test) => test(captures))) {
        names.length = first;
        continue;
      }
    }
    matchEnds.push(names.length);
  }

  const count = names.length;
  const starts = new Int32Array(count);
  const rows = new Int32Array(count);
  for (let c = 0; c < count; c++) {
    const base = keptAt[c]! * NODE_FIELDS;
    // Offsets in the buffer are bytes of the UTF-16 text the binding hands tree-sitter.
    starts[c] = fields[base + START_BYTE]! >>> 1;
    rows[c] = fields[base + START_ROW]!;
  }
  return {
    count,
    matchEnds: Int32Array.from(matchEnds),
    names,
    starts,
    rows,
    endOf(capture) {
      const base = keptAt[capture]! * NODE_FIELDS;
      const buffer = binding.nodeTransferArray;
      for (let k = 0; k < NODE_FIELDS; k++) buffer[k] = fields[base + k]!;
      return binding.NodeMethods.endIndex(tree);
    },
    node: (capture) => nodeAt(keptAt[capture]!),
  };
}

/**
 * Each captured node's fields, copied out of the transfer buffer before anything reuses it. A node
 * the binding had cached comes back as its object, taking no room in the buffer; a parse worker
 * turns the cache off (nodeCache.ts), so there the buffer holds every node, in order.
 */
function nodeFieldsOf(symbols: ReadonlyArray<number | object | null>, transferred: Uint32Array): Uint32Array {
  if (symbols.every((symbol) => typeof symbol !== 'object' || symbol === null)) return transferred.slice(0, symbols.length * NODE_FIELDS);
  const fields = new Uint32Array(symbols.length * NODE_FIELDS);
  for (let i = 0, offset = 0; i < symbols.length; i++) {
    const symbol = symbols[i];
    const source = typeof symbol === 'object' && symbol !== null ? (symbol as ArrayLike<number>) : null;
    for (let k = 0; k < NODE_FIELDS; k++) fields[i * NODE_FIELDS + k] = source ? source[k]! : transferred[offset + k]!;
    if (!source) offset += NODE_FIELDS;
  }
  return fields;
}
