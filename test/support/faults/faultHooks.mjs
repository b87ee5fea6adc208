// @ts-check
/**
 * Loader hooks: the workers' extractRecord.js resolves to the faulty wrapper, except from the
 * wrapper itself. The parse worker runs bundled, with extractRecord inside it: its bundle loads
 * as the unbundled worker, whose import of extractRecord.js these hooks see.
 */
const REAL = new URL('../../../dist/workers/extractRecord.js', import.meta.url).href;
const FAULTY = new URL('./faultyExtractRecord.mjs', import.meta.url).href;
export const BUNDLED_WORKER = new URL('../../../dist/bundle/workers/parseShard.js', import.meta.url).href;
const UNBUNDLED_WORKER = new URL('../../../dist/workers/parseShard.js', import.meta.url).href;

/** @type {import('node:module').ResolveHook} */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  return resolved.url === REAL && context.parentURL !== FAULTY ? { ...resolved, url: FAULTY } : resolved;
}

/** @type {import('node:module').LoadHook} */
export async function load(url, context, nextLoad) {
  if (url !== BUNDLED_WORKER) return nextLoad(url, context);
  const source = `export { default } from ${JSON.stringify(UNBUNDLED_WORKER)};\n`;
  return { format: 'module', source, shortCircuit: true };
}
