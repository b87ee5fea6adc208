/** The baseline every map ranking is measured against: plain BM25 over file contents. */

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** A camelCase run's parts: `parseHTTPResponse2` → parse, HTTP, Response, 2. */
const CAMEL_PARTS = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;

/** Alphanumeric runs (so `_` splits too), split on camelCase, lowercased. */
export function bm25Terms(text: string): string[] {
  const terms: string[] = [];
  for (const run of text.match(/[A-Za-z0-9]+/g) ?? []) for (const part of run.match(CAMEL_PARTS) ?? []) terms.push(part.toLowerCase());
  return terms;
}

/**
 * Test files, by the rules the issue sets' gold files were filtered with: Go `_test.go`; Java
 * `*Test.java`, `*Tests.java` (and `src/test/`, a `test/` folder); JavaScript `*.test.*`,
 * `*.spec.*`, `__tests__/`; Python `test_*.py`, `*_test.py`; any `test/` or `tests/` folder.
 */
export function isTestFile(path: string): boolean {
  const parts = path.split('/');
  const name = parts[parts.length - 1]!;
  if (parts.slice(0, -1).some((folder) => folder === 'test' || folder === 'tests' || folder === '__tests__')) return true;
  return (
    name.endsWith('_test.go') ||
    /Tests?\.java$/.test(name) ||
    /\.(test|spec)\.[^.]+$/.test(name) ||
    (name.endsWith('.py') && (name.startsWith('test_') || name.endsWith('_test.py')))
  );
}

export interface ScoredFile {
  path: string;
  score: number;
}

/**
 * Okapi BM25 with Lucene's idf, ln(1 + (N − df + 0.5) / (df + 0.5)), which is never negative;
 * each query term counts as often as the query holds it. Files by score, then by path.
 */
export function bm25Ranking(documents: readonly { path: string; terms: readonly string[] }[], query: readonly string[]): ScoredFile[] {
  const frequencies = documents.map(({ terms }) => {
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    return counts;
  });
  const documentFrequency = new Map<string, number>();
  for (const counts of frequencies) for (const term of counts.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const total = documents.length;
  const averageLength = documents.reduce((sum, { terms }) => sum + terms.length, 0) / Math.max(total, 1);
  const scored = documents.map(({ path, terms }, i) => {
    const counts = frequencies[i]!;
    const lengthNorm = BM25_K1 * (1 - BM25_B + (BM25_B * terms.length) / (averageLength || 1));
    let score = 0;
    for (const term of query) {
      const tf = counts.get(term);
      if (!tf) continue;
      const df = documentFrequency.get(term)!;
      score += Math.log(1 + (total - df + 0.5) / (df + 0.5)) * ((tf * (BM25_K1 + 1)) / (tf + lengthNorm));
    }
    return { path, score };
  });
  return scored.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
