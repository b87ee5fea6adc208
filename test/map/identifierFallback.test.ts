import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { get_encoding } from 'tiktoken';
import { afterAll, describe, expect, test } from 'vitest';
import { cliTags } from '../support/cli.js';
import { AIDER_STYLE, copyFixture, filePaths, lines, mapWithin, rankingOf, rankOf, scoreOf, topDefinitions } from '../support/mapFixture.js';

/**
 * aider's identifier fallback in an otherwise normal repo: a Python job runner whose
 * jobs/config.py holds only constants, so it defines but references nothing, and every
 * identifier in it becomes a reference of it (line -1). Its constants are thereby referenced by
 * their own file, as well as imported by queue.py and worker.py.
 *
 * The graph, referencer → definer, weight = multipliers × √(reference count):
 *   config.py → itself  REDIS_URL, QUEUE_NAME, MAX_ATTEMPTS, BACKOFF_SECONDS: 10 each (long
 *                       snake, one occurrence)                                            out 40
 *   queue.py → config   QUEUE_NAME 10, REDIS_URL 10 (the imports; as call arguments they are
 *                       no references); → itself __init__ 0.1, push 0.1                   out 20.2
 *   worker.py → config  BACKOFF_SECONDS 10, MAX_ATTEMPTS 10; → queue JobQueue 10√2 (long
 *                       camel: import + annotation), pop 1; → tasks run_task 10√2;
 *                       → itself work_forever 0.1                                        out 49.38
 *   tasks.py references nothing of the repo, but calls (partition, info): no fallback; dangling.
 */
const root = copyFixture('identifierFallback');
const encoding = get_encoding('cl100k_base');
afterAll(() => encoding.free());

const QUEUE_OUT = 20.2;
const WORKER_OUT = 21.1 + 20 * Math.SQRT2;

describe('the identifier fallback', () => {
  test('a file that defines but references nothing references its identifiers, at line -1', async () => {
    const tags = await cliTags(root);
    expect(tags.filter((tag) => tag.startsWith('jobs/config.py:') && tag.includes(' ref '))).toEqual([
      'jobs/config.py:-1 ref identifier REDIS_URL',
      'jobs/config.py:-1 ref identifier QUEUE_NAME',
      'jobs/config.py:-1 ref identifier MAX_ATTEMPTS',
      'jobs/config.py:-1 ref identifier BACKOFF_SECONDS',
    ]);
    // Files with a reference of their own get no fallback, even tasks.py, whose calls name
    // nothing of the repo.
    expect(tags.filter((tag) => tag.includes(':-1 ') && !tag.startsWith('jobs/config.py:'))).toEqual([]);
  });

  test('the fallback makes config.py a sink that keeps its rank in its constants', async () => {
    const ranked = await rankingOf(root);
    // config.py's out-edges all lead back to itself, so it keeps what it gets (20/20.2 of
    // queue.py, 20/49.38 of worker.py and the teleport): 0.82. Each constant gets a quarter
    // of that; REDIS_URL and QUEUE_NAME add 10/20.2 of queue.py, MAX_ATTEMPTS and
    // BACKOFF_SECONDS 10/49.38 of worker.py, a smaller file rank over a larger out-weight.
    expect(filePaths(ranked)).toEqual(['jobs/config.py', 'jobs/queue.py', 'jobs/tasks.py', 'jobs/worker.py']);
    expect(topDefinitions(ranked, 6)).toEqual([
      'jobs/config.py REDIS_URL',
      'jobs/config.py QUEUE_NAME',
      'jobs/config.py MAX_ATTEMPTS',
      'jobs/config.py BACKOFF_SECONDS',
      'jobs/tasks.py run_task',
      'jobs/queue.py JobQueue',
    ]);
    const config = rankOf(ranked, 'jobs/config.py');
    expect(config).toBeCloseTo(0.8207, 4);
    expect(scoreOf(ranked, 'jobs/config.py', 'REDIS_URL')).toBeCloseTo(config / 4 + (rankOf(ranked, 'jobs/queue.py') * 10) / QUEUE_OUT, 12);
    expect(scoreOf(ranked, 'jobs/config.py', 'MAX_ATTEMPTS')).toBeCloseTo(config / 4 + (rankOf(ranked, 'jobs/worker.py') * 10) / WORKER_OUT, 12);
    const { text } = await mapWithin(encoding, root, 64, AIDER_STYLE);
    expect(text).toBe(
      lines('', 'jobs/config.py:', '⋮', '│REDIS_URL = "redis://localhost:6379/0"', '│QUEUE_NAME = "jobs"', '│MAX_ATTEMPTS = 5', '│BACKOFF_SECONDS = 30'),
    );
  });

  test('one real reference ends the fallback, and config.py no longer holds its rank', async () => {
    const edited = copyFixture('identifierFallback');
    writeFileSync(
      join(edited, 'jobs/config.py'),
      '"""Settings of the job runner, from the environment."""\nimport os\n\nREDIS_URL = os.environ.get("REDIS_URL", "redis://localhost:6379/0")\nQUEUE_NAME = "jobs"\nMAX_ATTEMPTS = 5\nBACKOFF_SECONDS = 30\n',
    );
    expect((await cliTags(edited)).filter((tag) => tag.includes(':-1 '))).toEqual([]);
    const ranked = await rankingOf(edited);
    // config.py now has no edge out (os and get are not the repo's): a dangling node whose rank
    // is spread evenly. Its constants get only their importers' shares: REDIS_URL and
    // QUEUE_NAME 10/20.2 of queue.py; MAX_ATTEMPTS and BACKOFF_SECONDS 10/49.38 of worker.py,
    // now below run_task and JobQueue (10√2/49.38 of it).
    expect(topDefinitions(ranked, 6)).toEqual([
      'jobs/config.py REDIS_URL',
      'jobs/config.py QUEUE_NAME',
      'jobs/tasks.py run_task',
      'jobs/queue.py JobQueue',
      'jobs/config.py MAX_ATTEMPTS',
      'jobs/config.py BACKOFF_SECONDS',
    ]);
    expect(scoreOf(ranked, 'jobs/config.py', 'REDIS_URL')).toBeCloseTo((rankOf(ranked, 'jobs/queue.py') * 10) / QUEUE_OUT, 12);
    expect(scoreOf(ranked, 'jobs/config.py', 'MAX_ATTEMPTS')).toBeCloseTo((rankOf(ranked, 'jobs/worker.py') * 10) / WORKER_OUT, 12);
    expect(rankOf(ranked, 'jobs/config.py')).toBeLessThan(0.5);
    const { text } = await mapWithin(encoding, edited, 64, AIDER_STYLE);
    expect(text).toBe(lines('', 'jobs/config.py:', '⋮', '│REDIS_URL = os.environ.get("REDIS_URL", "redis://localhost:6379/0")', '│QUEUE_NAME = "jobs"', '⋮'));
  });
});
