import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { extractFixture } from './fixtureTags.js';

/** aider's own output on the shop repo, one folder per scenario (fixtures/aider/README.md says how it was made). */
export const AIDER_EXPECTED = fileURLToPath(new URL('../../fixtures/aider/expected', import.meta.url));
export const AIDER_SHOP = fileURLToPath(new URL('../../fixtures/aider/shop', import.meta.url));
/** aider's tags of the shop repo, keyed by path relative to AIDER_SHOP. */
const AIDER_TAGS = `${AIDER_EXPECTED}/none-1024/tags.json`;

interface AiderTag {
  rel_fname: string;
  name: string;
  kind: 'def' | 'ref';
  /** 0-based; -1 for references from aider's identifier fallback. */
  line: number;
}

/**
 * aider's tags of the shop repo files with one of `extensions`, as `path:line def|ref name`
 * (names and lines only: the two tools name kinds differently), and those of them ours lack.
 */
export function compareWithAider(extensions: string[]): { expected: string[]; missing: string[] } {
  const ofLanguage = (path: string): boolean => extensions.some((extension) => path.endsWith(extension));
  // Only this language's files: another language's query may be mid-edit in the same checkout.
  const ours = new Set<string>();
  for (const record of extractFixture(AIDER_SHOP, ofLanguage)) {
    for (const definition of record.definitions) ours.add(`${record.path}:${definition.line} def ${definition.name}`);
    const { names, lines } = record.references;
    for (let i = 0; i < names.length; i++) ours.add(`${record.path}:${lines[i]} ref ${names[i]}`);
  }
  const expected = Object.entries(JSON.parse(readFileSync(AIDER_TAGS, 'utf8')) as Record<string, AiderTag[]>)
    .filter(([path]) => ofLanguage(path))
    .flatMap(([, tags]) => tags)
    // aider's fallback references (line -1) come from a lexer, used where its query found no
    // reference; where ours finds real ones they have no counterpart.
    .filter((tag) => tag.kind === 'def' || tag.line >= 0)
    // aider's lines are 0-based.
    .map((tag) => `${tag.rel_fname}:${tag.line + 1} ${tag.kind} ${tag.name}`);
  return { expected, missing: expected.filter((tag) => !ours.has(tag)) };
}
