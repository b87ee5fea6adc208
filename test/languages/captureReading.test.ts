import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Parser from 'tree-sitter';
import { describe, expect, test } from 'vitest';
import { languageOf } from '../../dist/src/discover/languages.js';
import { grammarFor } from '../../dist/workers/grammars.js';
import { capturesFromMatches, type QueryCaptures, queryCaptures, readsRawCaptures } from '../../dist/workers/queryCaptures.js';
import { listFiles } from '../support/fixtureTags.js';

const fixtures = fileURLToPath(new URL('../../fixtures/languages', import.meta.url));
const TreeSitter = createRequire(import.meta.url)('tree-sitter') as typeof Parser;

/** Every capture as its match, name, node type and span, read back through the node objects' own getters where a raw reading would not. */
function described(captures: QueryCaptures): string[] {
  const lines: string[] = [];
  for (let m = 0, capture = 0; m < captures.matchEnds.length; m++) {
    for (; capture < captures.matchEnds[m]!; capture++) {
      const node = captures.node(capture);
      lines.push(
        `${m} ${captures.names[capture]} ${node.type} ${captures.starts[capture]}-${captures.endOf(capture)} row ${captures.rows[capture]} ` +
          `(node ${node.startIndex}-${node.endIndex} row ${node.startPosition.row})`,
      );
    }
  }
  return lines;
}

describe('reading query captures from the binding', () => {
  test('the pinned binding is read raw, not through a node object per capture', () => {
    const grammar = grammarFor('python');
    queryCaptures(grammar.tagsQuery, grammar.parser.parse('import os\n')!, 0);
    expect(readsRawCaptures()).toBe(true);
  });

  test('every language fixture gives the same captures, spans and rows as the public matches', () => {
    let compared = 0;
    for (const path of listFiles(fixtures)) {
      const language = languageOf(path);
      if (!language) continue;
      const grammar = grammarFor(language);
      grammar.parser.reset();
      const tree = grammar.parser.parse(readFileSync(join(fixtures, path), 'utf8'))!;
      const raw = described(queryCaptures(grammar.tagsQuery, tree, 0));
      expect(raw, path).toEqual(described(capturesFromMatches(grammar.tagsQuery, tree, 0)));
      compared += raw.length;
    }
    expect(compared).toBeGreaterThan(1000);
  });

  test('a match whose predicates fail is dropped with all of its captures; offsets count UTF-16 units', () => {
    const grammar = grammarFor('python');
    const query = new TreeSitter.Query(grammar.parser.getLanguage(), '((call function: (identifier) @f arguments: (argument_list) @a) (#eq? @f "keep"))');
    const tree = grammar.parser.parse('drop(1)\r\nkeep(2)\nkeep(é)\n')!;
    const captures = queryCaptures(query, tree, 0);
    expect(described(captures)).toEqual([
      '0 f identifier 9-13 row 1 (node 9-13 row 1)',
      '0 a argument_list 13-16 row 1 (node 13-16 row 1)',
      '1 f identifier 17-21 row 2 (node 17-21 row 2)',
      '1 a argument_list 21-24 row 2 (node 21-24 row 2)',
    ]);
  });

  test('a node the binding has cached comes back as that node, between nodes it sends in the buffer', () => {
    const grammar = grammarFor('python');
    const query = new TreeSitter.Query(grammar.parser.getLanguage(), '(module) @m (identifier) @i');
    const tree = grammar.parser.parse('x = 1\nprint(x)\n')!;
    // Outside a parse worker the binding caches each node it hands out, the root first.
    expect(tree.rootNode.endIndex).toBe(15);
    const captures = queryCaptures(query, tree, 0);
    expect(described(captures)).toEqual(described(capturesFromMatches(query, tree, 0)));
    expect(described(captures)).toEqual([
      '0 m module 0-15 row 0 (node 0-15 row 0)',
      '1 i identifier 0-1 row 0 (node 0-1 row 0)',
      '2 i identifier 6-11 row 1 (node 6-11 row 1)',
      '3 i identifier 12-13 row 1 (node 12-13 row 1)',
    ]);
  });
});
