// @ts-check
/** Loader hooks: the workers' extractRecord.js resolves to the faulty wrapper, except from the wrapper itself. */
const REAL = new URL('../../../dist/workers/extractRecord.js', import.meta.url).href;
const FAULTY = new URL('./faultyExtractRecord.mjs', import.meta.url).href;

/** @type {import('node:module').ResolveHook} */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  return resolved.url === REAL && context.parentURL !== FAULTY ? { ...resolved, url: FAULTY } : resolved;
}
