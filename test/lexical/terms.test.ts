import { describe, expect, test } from 'vitest';
import { bm25Scores } from '../../dist/src/lexical/bm25.js';
import { buildPostings, termIndex } from '../../dist/src/lexical/postings.js';
import { readTaskText } from '../../dist/src/lexical/taskText.js';
import { countFileTerms, countPathTerms, countTerms, forEachTerm, termHash } from '../../dist/src/lexical/terms.js';

function termsOf(text: string): string[] {
  const terms: string[] = [];
  forEachTerm(text, (term) => terms.push(term));
  return terms;
}

describe('terms', () => {
  test('words split at _ and camelCase humps, lowercased, compounds also whole', () => {
    expect(termsOf('HTTPAdapter get_connection parseJSONBody __init__ v2Api x ABC 123abc a.b')).toEqual([
      'http',
      'adapter',
      'httpadapter',
      'get',
      'connection',
      'getconnection',
      'parse',
      'json',
      'body',
      'parsejsonbody',
      'init',
      'v2',
      'api',
      'v2api',
      'abc',
    ]);
  });

  test('counted by hash in order of first sight', () => {
    expect(countTerms('send Session send session_send')).toEqual({
      hashes: Int32Array.of(termHash('send'), termHash('session'), termHash('sessionsend')),
      counts: Int32Array.of(3, 2, 1),
    });
  });

  test("countTerms hashes as it scans, and finds forEachTerm's terms exactly", () => {
    const text = `HTTPAdapter __init__ _x a_B_cd x9Y ABCDef get_JSON_body2 9lives a__b ${'q'.repeat(41)}${' über_Name\n'.repeat(2)}`;
    const expected = { hashes: [] as number[], counts: [] as number[] };
    forEachTerm(text, (term) => {
      const at = expected.hashes.indexOf(termHash(term));
      if (at < 0) {
        expected.hashes.push(termHash(term));
        expected.counts.push(1);
      } else {
        expected.counts[at]!++;
      }
    });
    expect(countTerms(text)).toEqual({ hashes: Int32Array.from(expected.hashes), counts: Int32Array.from(expected.counts) });
    expect(expected.hashes.length).toBe(19);
  });

  test('a text denser in distinct terms than the counter first makes room for is counted whole', () => {
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const words = [...letters].flatMap((first) => [...letters].map((second) => `${first}${second}`));
    const counted = countTerms(`${words.join(' ')} ${words.join(' ')}`);
    expect([...counted.hashes]).toEqual(words.map(termHash));
    expect(counted.counts.every((count) => count === 2)).toBe(true);
  });

  test("a file's terms are those of its path and its bytes' text joined by a line break, wherever a word ends", () => {
    const path = 'src/HTTPAdapter/über_Name.ts';
    for (const text of ['', 'parseJSON', 'ABCDef get_JSON_body2 x\r\n€uroValue', 'Q'.repeat(45), '_Ab', `${'é'.repeat(70_000)}lastWord`]) {
      expect(countFileTerms(path, Buffer.from(text))).toEqual(countTerms(`${path}\n${text}`));
    }
  });

  test("a file's terms stop after its first 256 KiB, even inside a word", () => {
    const text = `${'ab '.repeat(87_380)}q cdef tail`;
    expect(Buffer.byteLength(text)).toBeGreaterThan(256 * 1024);
    const counted = countFileTerms('f.txt', Buffer.from(text));
    expect(counted).toEqual(countTerms(`f.txt\n${text.slice(0, 256 * 1024)}`));
    expect([...counted.hashes]).toContain(termHash('cd'));
    expect([...counted.hashes]).not.toContain(termHash('cdef'));
    expect([...counted.hashes]).not.toContain(termHash('tail'));
  });

  test('hashes are FNV-1a, as signed 32-bit integers', () => {
    expect(termHash('')).toBe(0x811c9dc5 | 0);
    expect(termHash('a')).toBe(0xe40c292c | 0);
  });
});

describe('postings and BM25', () => {
  const docs = ['alpha beta beta', 'beta gamma', 'gamma gamma gamma delta'].map(countTerms);
  const postings = buildPostings(docs);

  test('each term lists its files ascending with their counts; files their lengths', () => {
    const gamma = termIndex(postings, termHash('gamma'));
    expect(Array.from(postings.files.subarray(postings.offsets[gamma], postings.offsets[gamma + 1]))).toEqual([1, 2]);
    expect(Array.from(postings.counts.subarray(postings.offsets[gamma], postings.offsets[gamma + 1]))).toEqual([1, 3]);
    expect(Array.from(postings.fileTotals)).toEqual([3, 2, 4]);
    expect(termIndex(postings, termHash('epsilon'))).toBe(-1);
  });

  const query = { hashes: Int32Array.from([termHash('beta'), termHash('gamma')]), weights: Float64Array.from([1, 2]) };

  test('Okapi BM25, k1 1.2, b 0.75 (values from an independent computation)', () => {
    const scores = bm25Scores(postings, query.hashes, query.weights, null);
    expect(scores[0]).toBeCloseTo(0.6462549902128865, 12);
    expect(scores[1]).toBeCloseTo(1.6326441858009764, 12);
    expect(scores[2]).toBeCloseTo(1.3786773124541578, 12);
  });

  test("each path's terms are its folders' and its file name's, without the extension; every term of a path counts in its length", () => {
    const postings = buildPostings(['requests/adapters.py', 'requests/sessions/http_session.py', 'docs/http.v2/README'].map(countPathTerms));
    const listed = (term: string) => {
      const at = termIndex(postings, termHash(term));
      if (at < 0) return null;
      const span = [postings.offsets[at]!, postings.offsets[at + 1]!] as const;
      return { files: Array.from(postings.files.subarray(...span)), counts: Array.from(postings.counts.subarray(...span)) };
    };
    expect(listed('http')).toEqual({ files: [1, 2], counts: [1, 1] });
    expect(listed('session')).toEqual({ files: [1], counts: [1] });
    expect(listed('requests')).toEqual({ files: [0, 1], counts: [1, 1] });
    expect(listed('adapters')).toEqual({ files: [0], counts: [1] });
    expect(listed('readme')).toEqual({ files: [2], counts: [1] });
    expect(listed('v2')).toEqual({ files: [2], counts: [1] });
    expect(listed('py')).toBeNull();
    // requests adapters; requests sessions http session httpsession; docs http v2 readme.
    expect(Array.from(postings.fileTotals)).toEqual([2, 5, 4]);
  });

  test('an excluded file neither scores nor counts in the statistics', () => {
    const scores = bm25Scores(postings, query.hashes, query.weights, Uint8Array.from([0, 0, 1]));
    expect(scores[0]).toBeCloseTo(0.2373416715660948, 12);
    expect(scores[1]).toBeCloseTo(1.708393573965574, 12);
    expect(scores[2]).toBe(0);
  });
});

describe('the text of a task', () => {
  const task = readTaskText(
    'Session.send drops the proxy headers\nWhen `requests/sessions.py` calls HTTPAdapter.send, see\n  File "/usr/lib/requests/adapters.py", line 12',
  );

  test("the title's terms count twice, stopwords none", () => {
    const weightOf = (term: string) => task.termWeights[Array.from(task.termHashes).indexOf(termHash(term))];
    expect(weightOf('session')).toBe(2);
    expect(weightOf('send')).toBe(3);
    expect(weightOf('adapter')).toBe(1);
    expect(weightOf('the')).toBeUndefined();
  });

  test('the words written as code: in code blocks, backticks and double quotes, called, or shaped as identifiers', () => {
    const text = readTaskText(
      'The left margin drops `proxy` headers\nWhen HTTPAdapter calls get_connection, "Invalid header value", fix_it(x) and utf8 fail:\n```\nresp = adapter.close()\n```\nSphinx default width',
    );
    expect(text.codeWords).toEqual(['HTTPAdapter', 'get_connection', 'fix_it', 'utf8', 'proxy', 'Invalid', 'header', 'value', 'resp', 'adapter', 'close']);
  });

  // Each of these took time quadratic in its length (hours for a megabyte): a pattern that began
  // with a repetition failed after it at each character of a run.
  test.each([
    ['one word', 'a'.repeat(1 << 20), { words: 1, codeWords: [], paths: [] }],
    ['one word then a call', `${'a'.repeat(1 << 20)}x(`, { words: 1, codeWords: [`${'a'.repeat(1 << 20)}x`], paths: [] }],
    ['a run of slashes', '/'.repeat(1 << 20), { words: 0, codeWords: [], paths: [] }],
    ['dashes and dots inside a path', `a.b${'-.'.repeat(1 << 19)}x`, { words: 0, codeWords: [], paths: [`a.b${'-.'.repeat(1 << 19)}x`] }],
    ['digits after letters', 'a1'.repeat(1 << 19), { words: 1, codeWords: ['a1'.repeat(1 << 19)], paths: [] }],
  ])('a megabyte of %s is read in time linear in its length', (_, text, expected) => {
    const read = readTaskText(text);
    expect({ words: read.words.length, codeWords: read.codeWords, paths: read.paths }).toEqual(expected);
  });

  test('a megabyte of distinct words and paths: each once', () => {
    const words = Array.from({ length: 100_000 }, (_, i) => `w${i} p${i}/x.py`);
    const read = readTaskText(words.join(' '));
    // w0-w9 and p0-p9 are too short to be words.
    expect(read.words).toHaveLength(199_980);
    expect(read.paths).toHaveLength(100_000);
    expect(read.paths.at(-1)).toBe('p99999/x.py');
  });

  test('words as written, and paths and qualified names', () => {
    expect(task.words).toContain('HTTPAdapter');
    expect(task.words).not.toContain('the');
    expect(task.paths).toEqual(['Session.send', 'requests/sessions.py', 'HTTPAdapter.send', 'usr/lib/requests/adapters.py']);
  });
});
