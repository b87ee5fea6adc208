import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { CLI } from '../support/cli.js';

describe('the installed binary', () => {
  test('runs by itself, as `npx repomap` runs it', () => {
    const result = spawnSync(CLI, ['--help'], { encoding: 'utf8' });
    expect(result.error).toBeUndefined();
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('repomap map [root]');
  });
});
