import { logStatements, type DataManager } from '@antidote/data';
import { memoryDatabase } from '@antidote/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PoolOverrides } from './pool-overrides.js';

describe('PoolOverrides', () => {
  let data: DataManager;
  const held: PoolOverrides[] = [];
  /** One api replica's set (each replica holds its own), read again every `refreshMs`. */
  const replica = (refreshMs = 3_600_000): PoolOverrides => {
    const overrides = new PoolOverrides(data, refreshMs);
    overrides.onApplicationBootstrap();
    held.push(overrides);
    return overrides;
  };
  beforeEach(async () => {
    data = await memoryDatabase();
  });
  afterEach(async () => {
    for (const overrides of held.splice(0)) overrides.onApplicationShutdown();
    await data.close();
  });

  it('reads the operators’ sizes once, not per question; its own change at once after a reload', async () => {
    const overrides = replica();
    await data.poolSizing.setOverride('alpha', 0);
    expect(await overrides.has('alpha')).toBe(true);
    const log = logStatements(data.dataSource);
    for (let i = 0; i < 5; i++) expect(await overrides.has(i % 2 ? 'alpha' : 'beta')).toBe(i % 2 === 1);
    log.stop();
    expect(log.statements).toEqual([]);
    // Held: a change nobody reloaded for is not seen yet…
    await data.poolSizing.setOverride('beta', 2);
    expect(await overrides.has('beta')).toBe(false);
    // …the admin route reloads after its write.
    await overrides.reload();
    expect(await overrides.has('beta')).toBe(true);
    await data.poolSizing.clearOverride('alpha');
    await overrides.reload();
    expect(await overrides.has('alpha')).toBe(false);
  });

  it('sees another replica’s change at its next periodic read', async () => {
    const writer = replica();
    const reader = replica(20);
    expect(await reader.has('alpha')).toBe(false);
    await data.poolSizing.setOverride('alpha', 1);
    await writer.reload();
    expect(await writer.has('alpha')).toBe(true);
    await expect.poll(() => reader.has('alpha'), { timeout: 30_000 }).toBe(true);
  });

  it('keeps what it held when a read fails, and reads on the next question when it held nothing', async () => {
    const overrides = replica();
    await data.poolSizing.setOverride('alpha', 1);
    expect(await overrides.has('alpha')).toBe(true);
    const read = data.poolSizing.overrides.bind(data.poolSizing);
    data.poolSizing.overrides = () => Promise.reject(new Error('database away'));
    await overrides.reload();
    expect(await overrides.has('alpha')).toBe(true);
    const fresh = replica();
    await expect(fresh.has('alpha')).rejects.toThrow('database away');
    data.poolSizing.overrides = read;
    expect(await fresh.has('alpha')).toBe(true);
  });
});
