import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { languageOf } from '../../dist/src/discover/languages.js';
import type { FileTags } from '../../dist/src/rank/identifierTables.js';
import type { Definition, FileRecord, Language } from '../../dist/src/record/fileRecord.js';
import { extractRecord } from '../../dist/workers/extractRecord.js';

/** Every file below `dir`, relative and `/`-separated, in sorted order. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (current: string): void => {
    for (const name of readdirSync(current).sort()) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(dir, path).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * Records of every source file below `dir` (of those whose relative path `include` accepts),
 * extracted in this thread (no pool, no store).
 */
export function extractFixture(dir: string, include: (path: string) => boolean = () => true): FileRecord[] {
  const records: FileRecord[] = [];
  for (const path of listFiles(dir)) {
    const language = languageOf(path);
    if (!language || !include(path)) continue;
    records.push(textRecord(path, language, readFileSync(join(dir, path), 'utf8')));
  }
  return records;
}

/** The record of a source text, extracted in this thread as a worker would from a file of that path. */
export function textRecord(path: string, language: Language, text: string, mtimeMs = 0): FileRecord {
  return extractRecord({ path, mtimeMs, size: text.length, ctimeMs: 0, ino: 0, language, text, bytes: Buffer.from(text) }, 10_000);
}

/** What the identifier tables are built from, for every file below `dir` (none for a file of no language). */
export function fixtureFileTags(dir: string): FileTags[] {
  const records = new Map(extractFixture(dir).map((record) => [record.path, record]));
  return listFiles(dir).map((path) => ({
    path,
    definitions: records.get(path)?.definitions ?? [],
    referenceCounts: records.get(path)?.referenceCounts ?? { names: [], counts: [] },
  }));
}

/**
 * Tags of a fixture as compact lines, in file order, definitions then references:
 * `path:line def|ref subkind name`.
 */
export function fixtureTags(dir: string): string[] {
  const lines: string[] = [];
  for (const record of extractFixture(dir)) {
    for (const definition of record.definitions) {
      lines.push(`${record.path}:${definition.line} def ${definition.kind} ${definition.name}`);
    }
    const { names, lines: refLines, kinds } = record.references;
    for (let i = 0; i < names.length; i++) lines.push(`${record.path}:${refLines[i]} ref ${kinds[i]} ${names[i]}`);
  }
  return lines;
}

export function recordOf(records: FileRecord[], path: string): FileRecord {
  const record = records.find((candidate) => candidate.path === path);
  if (!record) throw new Error(`no record for ${path}`);
  return record;
}

/** `kind` or `line` tells apart definitions that share a name in one file. */
export function definitionOf(record: FileRecord, name: string, where: { kind?: string; line?: number } = {}): Definition {
  const definition = record.definitions.find(
    (candidate) =>
      candidate.name === name && (where.kind === undefined || candidate.kind === where.kind) && (where.line === undefined || candidate.line === where.line),
  );
  if (!definition) throw new Error(`no definition ${name} ${JSON.stringify(where)} in ${record.path}`);
  return definition;
}
