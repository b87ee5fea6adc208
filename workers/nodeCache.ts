import { createRequire } from 'node:module';

const CACHE_METHODS = ['_cacheNode', '_cacheNodes'];

/**
 * node-tree-sitter registers every node object it hands out in a per-tree cache, with a weak
 * reference and a finalizer each, so that the same node comes back as the same object. We never
 * compare nodes by identity, and the cache costs a tenth of a cold index: the registrations, then
 * their finalizers (go-500 in one thread, trees freed: 1.79 s with the cache, 1.59 s without).
 * The two methods are private to the binding (0.25); without them every node is a fresh object.
 * Each thread loads its own binding, so this changes the calling thread's only: call it where
 * the thread is ours, as a parse worker or the suspect checker starts, never in a host's.
 */
export function disableNodeCache(): void {
  const tree: unknown = Reflect.get(createRequire(import.meta.url)('tree-sitter'), 'Tree');
  if (typeof tree !== 'function') return;
  const prototype: object = tree.prototype;
  if (!CACHE_METHODS.every((method) => typeof Reflect.get(prototype, method) === 'function')) return;
  for (const method of CACHE_METHODS) Reflect.set(prototype, method, () => {});
}
