import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const LMDB = createRequire(import.meta.url).resolve('lmdb');

export type StoreDatabase = 'records' | 'tokens' | 'derived';

/**
 * Reads or rewrites a tag store's entries as another process would, in a child process: a
 * damaged store may end its reader with a signal, which must not take the test's worker with it.
 */
function inChild<T>(storePath: string, script: string, input: unknown): T {
  const program = `
    const { open } = require(${JSON.stringify(LMDB)});
    const root = open({ path: ${JSON.stringify(storePath)}, noSubdir: true, maxDbs: 4 });
    const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
    const db = (name) => root.openDB({ name, encoding: 'binary' });
    const run = async () => { ${script} };
    run().then(async (output) => { await root.close(); process.stdout.write(JSON.stringify(output ?? null)); });`;
  const result = spawnSync(process.execPath, ['-e', program], { input: JSON.stringify(input), encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`store edit failed (${result.status ?? result.signal}): ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

/** Every entry of one database, values base64-encoded. */
export function readStoreEntries(storePath: string, database: StoreDatabase): Record<string, string> {
  return inChild(
    storePath,
    `const out = {};
     for (const { key, value } of db(${JSON.stringify(database)}).getRange()) out[key] = Buffer.from(value).toString('base64');
     return out;`,
    null,
  );
}

/** Puts each entry (value base64-encoded) into one database, in one transaction. */
export function writeStoreEntries(storePath: string, database: StoreDatabase, entries: Record<string, string>): void {
  inChild(
    storePath,
    `const target = db(${JSON.stringify(database)});
     await target.transaction(() => { for (const [key, value] of Object.entries(input)) target.put(key, Buffer.from(value, 'base64')); });`,
    entries,
  );
}

/** Puts one entry under a key given as bytes (base64), as a byte flip in a key would leave it. */
export function writeRawKeyEntry(storePath: string, database: StoreDatabase, keyBase64: string, valueBase64: string): void {
  inChild(
    storePath,
    `const target = root.openDB({ name: ${JSON.stringify(database)}, encoding: 'binary', keyEncoding: 'binary' });
     await target.transaction(() => target.put(Buffer.from(input.key, 'base64'), Buffer.from(input.value, 'base64')));`,
    { key: keyBase64, value: valueBase64 },
  );
}
