/**
 * What the formats other than text share. Kept apart from renderMap.ts: a module that a lazily
 * loaded format and the text map both imported would be a chunk of its own in the bundle, which
 * every map would load.
 */

/**
 * A path or name on one line, every control character written `\xNN`: a file's name may hold a
 * newline or a `\r`, which would break a rendering's lines (and its count).
 */
export function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is replaced.
  return /[\u0000-\u001f\u007f]/.test(text) ? text.replace(/[\u0000-\u001f\u007f]/g, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`) : text;
}

/** A block from the cache, made and kept on a miss. */
export function cachedBlock(cache: Map<string, string> | undefined, key: string, make: () => string): string {
  let block = cache?.get(key);
  if (block === undefined) {
    block = make();
    cache?.set(key, block);
  }
  return block;
}
