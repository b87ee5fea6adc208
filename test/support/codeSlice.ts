import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** A repository of real TypeScript: these folders of repomap's own src/, copied to `<parent>/repo` (parent: a fresh temp folder by default). */
export function codeSlice(folders: readonly string[], parent: string = mkdtempSync(join(tmpdir(), 'repomap-slice-'))): string {
  const root = join(parent, 'repo');
  mkdirSync(root, { recursive: true });
  for (const folder of folders) cpSync(join(SRC, folder), join(root, 'src', folder), { recursive: true });
  return root;
}
