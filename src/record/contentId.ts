/**
 * A file's content id: git's blob id (the SHA-1 of `blob <size>\0` and the bytes), so a record
 * whose file only changed its stat (a touch, a checkout, a copy) is known to still hold without a
 * parse, and so the ids git keeps for a work tree can stand for reading the file.
 */
export function contentIdOf(bytes: Uint8Array): string {
  // Loaded on first use: a warm run hashes nothing.
  const { createHash } = process.getBuiltinModule('node:crypto');
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}
