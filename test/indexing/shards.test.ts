import { describe, expect, test } from 'vitest';
import { ShardQueue } from '../../dist/src/indexing/shards.js';
import type { ShardFile } from '../../dist/src/indexing/workerProtocol.js';
import type { Language } from '../../dist/src/record/fileRecord.js';

function filesOf(language: Language, count: number, size: number): ShardFile[] {
  return Array.from({ length: count }, (_, i) => ({ path: `${language}/${i}`, language, mtimeMs: 0, size, ctimeMs: 0, ino: 0 }));
}

/** Every shard a lane takes, asking until the queue has nothing more for it. */
function drain(queue: ShardQueue, lane: number): ShardFile[][] {
  const shards: ShardFile[][] = [];
  for (let shard = queue.next(lane); shard; shard = queue.next(lane)) shards.push(shard);
  return shards;
}

describe('ShardQueue', () => {
  test('lanes own languages balanced by estimated time, not bytes', () => {
    // Java costs half what Go does per byte. By bytes lane 0 would own Java alone (2 MB against
    // 2 MB of Go, Python and Rust); by time it owns Java and Python.
    const files = [...filesOf('java', 40, 50_000), ...filesOf('go', 20, 50_000), ...filesOf('python', 10, 50_000), ...filesOf('rust', 10, 50_000)];
    const queue = new ShardQueue(files, 2);
    const languages = [...new Set(drain(queue, 0).map((shard) => shard[0]!.language))];
    expect(languages.slice(0, 2)).toEqual(['java', 'python']);
  });

  test('hands out every file once, biggest shards first', () => {
    const files = [...filesOf('java', 30, 20_000), ...filesOf('go', 25, 30_000), ...filesOf('rust', 10, 5_000)];
    const queue = new ShardQueue(files, 2);
    const taken: ShardFile[][] = [];
    for (let lane = 0, idle = 0; idle < 2; lane = 1 - lane) {
      const shard = queue.next(lane);
      if (shard) taken.push(shard);
      idle = shard ? 0 : idle + 1;
    }
    const paths = taken.flat().map((file) => file.path);
    expect(paths.sort()).toEqual(files.map((file) => file.path).sort());
    const goShardBytes = taken.filter((shard) => shard[0]!.language === 'go').map((shard) => shard.reduce((sum, f) => sum + f.size, 0));
    expect(goShardBytes).toEqual([...goShardBytes].sort((a, b) => b - a));
  });

  test('a lane out of work helps, unless loading the grammar costs more than the work left', () => {
    // Python goes to lane 0; Go and one small TypeScript file to lane 1.
    const files = [...filesOf('python', 10, 50_000), ...filesOf('go', 8, 50_000), ...filesOf('typescript', 1, 2_000)];
    const queue = new ShardQueue(files, 2);
    const lane0 = drain(queue, 0).map((shard) => shard[0]!.language);
    expect(lane0[0]).toBe('python');
    expect(lane0).toContain('go');
    expect(lane0).not.toContain('typescript');
    expect(drain(queue, 1).map((shard) => shard[0]!.language)).toEqual(['typescript']);
  });
});
