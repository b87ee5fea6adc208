import { describe, expect, test } from 'vitest';
import { bm25Ranking, bm25Terms, isTestFile } from '../../dist/bench/quality/bm25.js';
import { chatFileOf } from '../../dist/bench/quality/issueRun.js';
import { longWords, mentionedFiles, mentionedIdentifiers, wordsOf } from '../../dist/bench/quality/mentions.js';
import { allInTop, goldRanks, meanOf, reciprocalRank, shareNamed } from '../../dist/bench/quality/metrics.js';
import { compareIssues } from '../../dist/bench/quality/qualityCompare.js';
import { qualityReport } from '../../dist/bench/quality/qualityReport.js';
import type { QualityResults } from '../../dist/bench/quality/qualityResults.js';
import { measureMap, usedDefinitions } from '../../dist/bench/quality/sliceRun.js';
import { VARIANTS } from '../../dist/bench/quality/variants.js';
import { buildIdentifierTables } from '../../dist/src/rank/identifierTables.js';

/** The quality harness's measures and text readings, on made-up rankings and texts (the issue sets never run in tests). */
describe('ranking measures', () => {
  const ranking = ['src/a.go', 'src/b.go', 'src/c.go', 'src/d.go', 'src/e.go', 'src/f.go'];

  test("gold files' places, 1-based, null when not ranked", () => {
    expect(goldRanks(ranking, ['src/c.go', 'src/z.go', 'src/a.go'])).toEqual([3, null, 1]);
    expect(goldRanks([...ranking, 'src/a.go'], ['src/a.go'])).toEqual([1]);
  });

  test('strict Acc@k: every gold file in the top k', () => {
    expect(allInTop([3, 1], 1)).toBe(false);
    expect(allInTop([3, 1], 3)).toBe(true);
    expect(allInTop([3, null], 10)).toBe(false);
    expect(allInTop([], 5)).toBe(false);
  });

  test('reciprocal rank of the best-placed gold file', () => {
    expect(reciprocalRank([4, null, 2])).toBe(0.5);
    expect(reciprocalRank([null])).toBe(0);
  });

  test('recall: the share named; means over what applies', () => {
    expect(shareNamed(['a', 'b', 'c', 'd'], new Set(['b', 'd', 'x']))).toBe(0.5);
    expect(shareNamed([], new Set(['a']))).toBeNull();
    expect(meanOf([1, null, 0, 0.5])).toBe(0.5);
    expect(meanOf([null])).toBeNull();
  });
});

describe('BM25 baseline', () => {
  test('terms: alphanumeric runs split on _ and camelCase, lowercased', () => {
    expect(bm25Terms('parseHTTPResponse2 user_id, getX()!')).toEqual(['parse', 'http', 'response', '2', 'user', 'id', 'get', 'x']);
  });

  test('test files by the gold filter rules', () => {
    const tests = ['core/logx/logs_test.go', 'gson/src/test/java/A.java', 'src/main/java/GsonTest.java', 'x/FooTests.java', 'lib/a.test.js', 'lib/a.spec.ts'];
    const more = ['lib/__tests__/a.js', 'test/app.js', 'pkg/tests/util.py', 'pkg/test_sessions.py', 'pkg/sessions_test.py'];
    for (const path of [...tests, ...more]) expect(isTestFile(path), path).toBe(true);
    for (const path of ['src/testing.go', 'src/Tester.java', 'lib/contest.js', 'pkg/attest.py', 'src/latest/a.rs']) expect(isTestFile(path), path).toBe(false);
  });

  test('Okapi BM25 (k1 1.2, b 0.75, idf ln(1 + (N − df + 0.5)/(df + 0.5))): exact scores, ties by path', () => {
    const documents = [
      { path: 'c.py', terms: ['render'] },
      { path: 'a.py', terms: ['parse', 'config', 'parse'] },
      { path: 'b.py', terms: ['load', 'config'] },
      { path: '0.py', terms: ['render'] },
    ];
    // N 4, average length 7/4; length norms 1.2 × (0.25 + 0.75 × length / 1.75); 'config' counted twice, as the query holds it twice.
    const normA = 1.2 * (0.25 + (0.75 * 3) / 1.75);
    const normB = 1.2 * (0.25 + (0.75 * 2) / 1.75);
    const idfParse = Math.log(1 + 3.5 / 1.5);
    const idfConfig = Math.log(1 + 2.5 / 2.5);
    const scored = bm25Ranking(documents, ['parse', 'config', 'config']);
    expect(scored.map((file) => file.path)).toEqual(['a.py', 'b.py', '0.py', 'c.py']);
    expect(scored[0]!.score).toBeCloseTo(idfParse * ((2 * 2.2) / (2 + normA)) + 2 * idfConfig * (2.2 / (1 + normA)), 12);
    expect(scored[1]!.score).toBeCloseTo(2 * idfConfig * (2.2 / (1 + normB)), 12);
    expect(scored[0]!.score).toBeCloseTo(2.4513372, 6);
    expect(scored[2]!.score).toBe(0);
  });
});

describe("the issue text as a map's mentions", () => {
  const text =
    'Logx: `Encoding` fails in core/logx/config.go\n  File "/srv/app/rest/handler/loghandler.go", line 3\nsee tracelogger.go and Durationlogger é_ab x1';
  const vocabulary = {
    paths: ['core/logx/config.go', 'core/logx/durationlogger.go', 'core/logx/tracelogger.go', 'rest/handler/loghandler.go', 'zrpc/tracelogger.go', 'README.md'],
    identifiers: new Set(['Encoding', 'Logx', 'line']),
  };

  test("Python's \\W+ split, and the previous harness's words of 3 characters or more", () => {
    expect(wordsOf('a.b(c_d) é_ab')).toEqual(['a', 'b', 'c_d', 'é_ab']);
    expect(longWords('the cat, the dog; ok é_a')).toEqual(['cat', 'dog', 'the', 'é_a']);
  });

  test('identifiers: words that are tag identifiers or path components', () => {
    expect(mentionedIdentifiers(text, vocabulary)).toEqual([
      'Encoding',
      'Logx',
      'config',
      'core',
      'handler',
      'line',
      'loghandler',
      'logx',
      'rest',
      'tracelogger',
    ]);
  });

  test("files: whole paths, a stack frame's path by suffix, stems of 5+ characters in any case; a basename two files share is not one", () => {
    expect(mentionedFiles(text, vocabulary)).toEqual([
      'core/logx/config.go',
      'core/logx/durationlogger.go',
      'core/logx/tracelogger.go',
      'rest/handler/loghandler.go',
      'zrpc/tracelogger.go',
    ]);
    expect(mentionedFiles('edit durationlogger.go', vocabulary)).toEqual(['core/logx/durationlogger.go']);
    expect(mentionedFiles('edit logx/config.go.', vocabulary)).toEqual(['core/logx/config.go']);
  });

  test("the variants: aider's ranking and rendering with the words or the mentions; the task ranking with the text as its query, whole and without each signal", () => {
    const task = { text: 'Fix Logx encoding', ...vocabulary };
    expect(VARIANTS.map((variant) => [variant.name, variant.request(task)])).toEqual([
      ['aider-words', { ranking: 'aider', style: 'aider', mentionedIdents: ['Fix', 'Logx', 'encoding'] }],
      ['aider-mentions', { ranking: 'aider', style: 'aider', mentionedIdents: ['Logx'], mentionedFiles: [] }],
      ['task', { query: 'Fix Logx encoding' }],
      ['task-aider-style', { query: 'Fix Logx encoding', style: 'aider' }],
      ['task-no-text-bm25', { query: 'Fix Logx encoding', signals: { textBm25: 0 } }],
      ['task-no-path-terms', { query: 'Fix Logx encoding', signals: { pathTerms: 0 } }],
      ['task-text-bm25-1', { query: 'Fix Logx encoding', signals: { textBm25: 1 } }],
      ['task-no-name-bm25', { query: 'Fix Logx encoding', signals: { nameBm25: 0 } }],
      ['task-no-mentioned-paths', { query: 'Fix Logx encoding', signals: { mentionedPaths: 0 } }],
      ['task-no-mentioned-names', { query: 'Fix Logx encoding', signals: { mentionedNames: 0 } }],
      ['task-no-code-words-only', { query: 'Fix Logx encoding', signals: { codeWordsOnly: false } }],
      ['task-no-graph', { query: 'Fix Logx encoding', signals: { graph: 0 } }],
      ['task-no-import-links', { query: 'Fix Logx encoding', signals: { importLinks: 0 } }],
      ['task-no-common-names', { query: 'Fix Logx encoding', signals: { commonNamesListed: false, commonNamesLearned: false } }],
      ['task-no-listed-common-names', { query: 'Fix Logx encoding', signals: { commonNamesListed: false } }],
      ['task-no-learned-common-names', { query: 'Fix Logx encoding', signals: { commonNamesLearned: false } }],
      ['task-no-chat-neighbourhood', { query: 'Fix Logx encoding', signals: { chatNeighbourhood: false } }],
      ['task-lexical-before', { query: 'Fix Logx encoding', signals: { textBm25: 1, pathTerms: 0, codeWordsOnly: false } }],
      ['task-tests-include', { query: 'Fix Logx encoding', tests: 'include' }],
      ['task-no-git', { query: 'Fix Logx encoding', gitSignals: false }],
      ['task-recency-0.15', { query: 'Fix Logx encoding', signals: { recency: 0.15 } }],
      ['task-recency-0.6', { query: 'Fix Logx encoding', signals: { recency: 0.6 } }],
      ['chat-task', { query: 'Fix Logx encoding' }],
      ['chat-task-no-git', { query: 'Fix Logx encoding', gitSignals: false }],
      ['chat-task-with-recency', { query: 'Fix Logx encoding', signals: { recencyWithChatFiles: true } }],
      ['chat-task-recency-only', { query: 'Fix Logx encoding', signals: { recencyWithChatFiles: true, coChange: 0 } }],
      ['chat-task-co-change-0.6', { query: 'Fix Logx encoding', signals: { coChange: 0.6 } }],
    ]);
    expect(VARIANTS.filter((variant) => variant.chatOnGold).map((variant) => variant.name)).toEqual([
      'chat-task',
      'chat-task-no-git',
      'chat-task-with-recency',
      'chat-task-recency-only',
      'chat-task-co-change-0.6',
    ]);
  });
});

describe("a chat file's neighbourhood in a map", () => {
  // app/main.py imports lib/store.py; it references Store (lib/store.py and other/store.py define it), helper (its folder), and print.
  const none = { names: [], counts: [] };
  const tables = buildIdentifierTables(
    [
      { path: 'app/main.py', definitions: [{ name: 'main', line: 1 }], referenceCounts: { names: ['Store', 'helper', 'print'], counts: [2, 1, 1] } },
      { path: 'app/util.py', definitions: [{ name: 'helper', line: 4 }], referenceCounts: none },
      { path: 'app/sub/deep.py', definitions: [{ name: 'helper', line: 9 }], referenceCounts: none },
      {
        path: 'lib/store.py',
        definitions: [
          { name: 'Store', line: 2 },
          { name: 'Store', line: 30 },
        ],
        referenceCounts: none,
      },
      { path: 'other/store.py', definitions: [{ name: 'Store', line: 5 }], referenceCounts: none },
    ],
    // Ids in path order: app/main.py 0, app/sub/deep.py 1, app/util.py 2, lib/store.py 3, other/store.py 4.
    { importOffsets: Int32Array.of(0, 1, 1, 1, 1, 1), importTargets: Int32Array.of(3) },
  );

  test('the definitions it uses: in files it imports or in its own folder, not below it, not elsewhere', () => {
    expect(usedDefinitions(tables, 0).sort()).toEqual(['app/util.py:4', 'lib/store.py:2', 'lib/store.py:30']);
  });

  test('what a map names of its imports and callers, and shows of those definitions', () => {
    const definition = (name: string, line: number) => ({ name, kind: 'function', line, signatureLines: [line], scopeLines: [] });
    const shown = [
      { path: 'lib/store.py', rank: 0.5, shownAs: 'lines' as const, definitions: [definition('save', 30)] },
      { path: 'README.md', rank: 0, shownAs: 'path' as const, definitions: [] },
      { path: 'app/util.py', rank: 0.2, shownAs: 'lines' as const, definitions: [definition('helper', 4), definition('other', 7)] },
    ];
    expect(measureMap(shown, ['lib/store.py', 'x.py'], ['app/util.py'], ['app/util.py:4', 'lib/store.py:2', 'lib/store.py:30'])).toEqual({
      importsNamed: 1,
      callersNamed: 1,
      usedShown: 2,
      files: 3,
      definitions: 3,
    });
  });
});

describe('the quality report', () => {
  const quality: QualityResults = {
    variants: ['aider-words'],
    issues: {
      seconds: 90,
      skipped: ['django/django: 188 issue(s) skipped, no mirror in /m'],
      outcomes: [
        {
          set: 'multi-dev',
          instance: 'a__b-1',
          repo: 'a/b',
          language: 'go',
          gold: ['x.go', 'y.go'],
          indexSeconds: 30,
          bm25: [1, 7],
          variants: { 'aider-words': { ranks: [2, 3], named: { 1024: [true, false], 2048: [true, true], 4096: [true, true] }, seconds: 1 } },
        },
        {
          set: 'multi-dev',
          instance: 'a__b-2',
          repo: 'a/b',
          language: 'go',
          gold: ['z.go'],
          indexSeconds: 30,
          bm25: [null],
          variants: { 'aider-words': { error: 'boom' } },
        },
      ],
    },
    slices: {
      seconds: 60,
      skipped: ['ts-500: no /c/slices/ts-500 (../shared/corpora/make-corpora.sh builds it)'],
      outcomes: [
        {
          slice: 'go-500',
          importEdges: 0,
          chatFiles: [
            {
              path: 'a.go',
              imports: 0,
              callers: 0,
              usedDefinitions: 4,
              maps: { 'aider-words': { 1024: { importsNamed: 0, callersNamed: 0, usedShown: 1, files: 10, definitions: 20 }, 4096: { error: 'boom' } } },
            },
            {
              path: 'b.go',
              imports: 2,
              callers: 0,
              usedDefinitions: 0,
              maps: {
                'aider-words': {
                  1024: { importsNamed: 1, callersNamed: 0, usedShown: 0, files: 12, definitions: 30 },
                  4096: { importsNamed: 2, callersNamed: 0, usedShown: 0, files: 40, definitions: 90 },
                },
              },
            },
          ],
        },
      ],
    },
  };

  test('per language and overall, BM25 beside each variant; failures said', () => {
    const report = qualityReport(quality);
    expect(report).toContain('| go | aider-words | 1 (1 failed) | 0.0 | 100.0 | 100.0 | 0.500 | 50.0 / 100.0 / 100.0 | 0.0 | 0.0 | 100.0 | 1.000 |');
    expect(report).toContain('| all | aider-words | 1 (1 failed) |');
    expect(report).toContain('2 issues in 1.5 min (indexing 1.0 min of it).');
    expect(report).toContain('Skipped: django/django: 188 issue(s) skipped, no mirror in /m.');
  });

  test('per slice and over the slices: each share over the chat files it applies to (n/a: none), files and definitions per map', () => {
    const report = qualityReport(quality);
    expect(report).toContain('| go-500 | aider-words | 1024 | 2 | 0.50 | n/a | 0.25 | 11.0 | 25.0 |');
    expect(report).toContain('| go-500 | aider-words | 4096 | 2 (1 failed) | 1.00 | n/a | n/a | 40.0 | 90.0 |');
    expect(report).toContain('| mean | aider-words | 1024 | 2 | 0.50 | n/a | 0.25 | 11.0 | 25.0 |');
    expect(report).toContain('No resolved import on go-500: chat files sampled among all files there.');
    expect(report).toContain('Skipped: ts-500: no /c/slices/ts-500 (../shared/corpora/make-corpora.sh builds it).');
  });
});

describe('variants with one of the fix’s files as the chat file', () => {
  test('the chat file: the gold file BM25 places best (unranked last, the first listed on a tie); none for a fix of one file', () => {
    expect(chatFileOf(['a.go', 'b.go', 'c.go'], [5, 2, 2])).toBe('b.go');
    expect(chatFileOf(['a.go', 'b.go'], [null, 7])).toBe('b.go');
    expect(chatFileOf(['a.go', 'b.go'], [null, null])).toBe('a.go');
    expect(chatFileOf(['a.go'], [1])).toBeNull();
  });

  test('reported over the issues they measured (not failures), on the other gold files, BM25 without the chat file in its ranking', () => {
    const issue = (instance: string, gold: string[], bm25: (number | null)[]) => ({
      set: 'multi-dev',
      instance,
      repo: 'a/b',
      language: 'go',
      gold,
      indexSeconds: 1,
      bm25,
    });
    const named = { 1024: [true, false], 2048: [true, true], 4096: [true, true] };
    const report = qualityReport({
      variants: ['chat-task'],
      issues: {
        seconds: 60,
        skipped: [],
        outcomes: [
          { ...issue('a__b-1', ['x.go', 'y.go', 'w.go'], [4, 2, 9]), variants: { 'chat-task': { ranks: [1, 3], named, seconds: 1, chatFile: 'y.go' } } },
          { ...issue('a__b-2', ['z.go'], [1]), variants: {} },
        ],
      },
      slices: null,
    });
    // BM25 without y.go (2nd): x.go 3rd, w.go 8th.
    expect(report).toContain('| go | chat-task | 1 | 0.0 | 100.0 | 100.0 | 1.000 | 50.0 / 100.0 / 100.0 | 0.0 | 0.0 | 100.0 | 0.333 |');
    expect(report).toContain('Variants named chat-*: only the issues whose fix edits several files');
  });
});

describe('two runs compared issue by issue', () => {
  const issue = (instance: string, bm25: (number | null)[], ranks: (number | null)[] | null) => ({
    set: 'multi-dev',
    instance,
    repo: 'a/b',
    language: 'go',
    gold: bm25.map((_, i) => `f${i}.go`),
    indexSeconds: 1,
    bm25,
    variants: { 'aider-words': ranks ? { ranks, named: {}, seconds: 1 } : { error: 'boom' } },
  });

  test('per variant over the issues both measured, then each issue whose gold files moved', () => {
    const a = { seconds: 1, skipped: [], outcomes: [issue('i1', [1], [8]), issue('i2', [3, 4], [2, 4]), issue('i3', [1], [1])] };
    const b = { seconds: 1, skipped: [], outcomes: [issue('i1', [1], [2]), issue('i2', [3, 4], [2, null]), issue('i3', [1], null)] };
    expect(compareIssues(a, b)).toBe(
      [
        '## Quality: issue sets, A → B',
        '',
        '| variant | issues | Acc@5 A | Acc@5 B | MRR A | MRR B | better | worse |',
        '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
        '| bm25 | 3 | 100.0 | 100.0 | 0.778 | 0.778 | 0 | 0 |',
        '| aider-words | 2 | 50.0 | 50.0 | 0.313 | 0.500 | 1 | 0 |',
        '',
        'Issues whose gold files moved (their places in the ranking, A → B):',
        '',
        '- aider-words i1: gold at 8 → 2',
        '- aider-words i2: gold at 2,4 → 2,-',
        '',
      ].join('\n'),
    );
  });
});
