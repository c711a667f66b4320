import { SAMPLE_CURRICULUM } from '@antidote/testing';
import { describe, expect, it } from 'vitest';
import { readCurriculumIsolated } from './curriculum.isolated.js';
import { readCurriculum, type ReadOptions } from './curriculum.reader.js';

const options: ReadOptions = { tier: 'local', instanceId: 'antidote-test' };

describe('readCurriculumIsolated (the read in a child process of its own)', () => {
  it('reads what the in-process read reads', async () => {
    const isolated = await readCurriculumIsolated(SAMPLE_CURRICULUM, options);
    expect(isolated.counts.lessons).toBeGreaterThan(0);
    expect(isolated).toEqual(await readCurriculum(SAMPLE_CURRICULUM, options));
  }, 60_000);

  it('ends a read that needs more memory than its limit with one problem naming the limit', async () => {
    const result = await readCurriculumIsolated(SAMPLE_CURRICULUM, { ...options, limits: { memoryMb: 2 } });
    expect(result.curriculum).toBeUndefined();
    expect(result.problems).toEqual([{ file: '.', rule: 'limit', message: 'reading the curriculum needed more than 2 MB of memory; the limit is 2 MB' }]);
  }, 60_000);

  it('stops the read when its caller shuts down', async () => {
    const shutdown = new AbortController();
    const reading = readCurriculumIsolated(SAMPLE_CURRICULUM, options, shutdown.signal);
    shutdown.abort();
    const result = await reading;
    expect(result.curriculum).toBeUndefined();
    expect(result.problems).toEqual([{ file: '.', rule: 'limit', message: 'the read was stopped: the process is shutting down' }]);
  }, 60_000);
});
