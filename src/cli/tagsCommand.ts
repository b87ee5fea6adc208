import { join } from 'node:path';
import { openIndex } from '../indexing/indexRepository.js';
import type { ArgsFor } from './commandTable.js';
import { indexOptionsFrom } from './commonOptions.js';

/** One tag as `repomap tags --format jsonl` prints it (aider's tag fields, lines 1-based). */
export interface TagLine {
  rel_fname: string;
  fname: string;
  line: number;
  name: string;
  kind: 'def' | 'ref';
  subkind: string;
}

export async function run(args: ArgsFor<'tags'>): Promise<number> {
  const index = await openIndex(indexOptionsFrom(args));
  try {
    const out: string[] = [];
    for (const file of index.files) {
      const record = index.store.get(file.path);
      if (!record) continue;
      const fname = join(index.root, file.path);
      for (const definition of record.definitions) {
        out.push(tagLine({ rel_fname: file.path, fname, line: definition.line, name: definition.name, kind: 'def', subkind: definition.kind }));
      }
      const { names, lines, kinds } = record.references;
      for (let i = 0; i < names.length; i++) {
        out.push(tagLine({ rel_fname: file.path, fname, line: lines[i]!, name: names[i]!, kind: 'ref', subkind: kinds[i]! }));
      }
      if (out.length >= 4096) flush(out);
    }
    flush(out);
  } finally {
    await index.store.close();
  }
  return 0;
}

function tagLine(tag: TagLine): string {
  return JSON.stringify(tag);
}

function flush(lines: string[]): void {
  if (lines.length === 0) return;
  process.stdout.write(`${lines.join('\n')}\n`);
  lines.length = 0;
}
