import { describe, expect, it, vi } from 'vitest';
import { FakeWatchSource } from '../../test/fake-watch-source.js';
import { KubeApiError } from '../client/kube-api.error.js';
import { ResilientWatch } from './resilient-watch.js';

interface Item {
  metadata?: { name?: string; resourceVersion?: string };
  value?: number;
}

const item = (name: string, value = 0): Item => ({ metadata: { name }, value });
const apiError = (code: number, reason: string) => new KubeApiError({ verb: 'watch', resource: 'fake' }, { code, reason, message: reason });

/** A watch over a fake source that keeps a name → value map, as the waiters do. */
function setup() {
  const source = new FakeWatchSource<Item>();
  const state = new Map<string, number | undefined>();
  const syncs: string[][] = [];
  const sleeps: number[] = [];
  const logs: { level: string; message: string }[] = [];
  const log = (level: string) => (_fields: object, message: string) => logs.push({ level, message });
  let clock = 0;
  const watch = new ResilientWatch<Item>(
    source,
    {
      onSync: (items) => {
        syncs.push(items.map((i) => i.metadata!.name!));
        state.clear();
        for (const i of items) state.set(i.metadata!.name!, i.value);
      },
      onChange: (type, i) => {
        if (type === 'DELETED') state.delete(i.metadata!.name!);
        else state.set(i.metadata!.name!, i.value);
      },
    },
    {
      sleep: (ms) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
      random: () => 0.5,
      now: () => clock,
      minHealthyMs: 1000,
      logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
    },
  );
  const controller = new AbortController();
  const done = watch.run(controller.signal);
  return { source, state, syncs, sleeps, logs, watch, controller, done, tick: (ms: number) => (clock += ms) };
}

const waitOpen = async (source: FakeWatchSource<Item>, calls: number) => {
  await vi.waitFor(() => {
    expect(source.watchedFrom.length).toBe(calls);
    expect(source.open).toBe(1);
  });
};

describe('ResilientWatch', () => {
  it('lists, then watches from the list resourceVersion and applies events', async () => {
    const s = setup();
    s.source.upsert(item('a', 1));
    await waitOpen(s.source, 1);
    s.source.upsert(item('b', 2));
    s.source.upsert(item('a', 3));
    s.source.remove('b');
    await vi.waitFor(() => expect([...s.state]).toEqual([['a', 3]]));
    expect(s.source.listCalls).toBe(1);
    s.controller.abort();
    await expect(s.done).resolves.toBeUndefined();
  });

  it('resumes from the last resourceVersion after a dropped connection, missing nothing', async () => {
    const s = setup();
    await waitOpen(s.source, 1);
    s.source.upsert(item('a', 1));
    await vi.waitFor(() => expect(s.state.get('a')).toBe(1));
    s.tick(5000);
    s.source.drop();
    // Changes while no connection is open are replayed on resume.
    s.source.upsert(item('b', 2));
    s.source.upsert(item('a', 4));
    await waitOpen(s.source, 2);
    await vi.waitFor(() =>
      expect([...s.state].sort()).toEqual([
        ['a', 4],
        ['b', 2],
      ]),
    );
    expect(s.source.watchedFrom).toEqual(['100', '101']);
    expect(s.source.listCalls).toBe(1);
    expect(s.sleeps).toEqual([]);
    expect(s.logs.some((l) => l.level === 'debug' && l.message === 'watch ended, resuming')).toBe(true);
    s.controller.abort();
    await s.done;
  });

  it('tracks bookmarks so a resume after a quiet period starts from the newest version', async () => {
    const s = setup();
    await waitOpen(s.source, 1);
    s.source.bookmark();
    s.source.bookmark();
    s.source.drop();
    await waitOpen(s.source, 2);
    expect(s.source.watchedFrom).toEqual(['100', '102']);
    s.controller.abort();
    await s.done;
  });

  it('re-lists on 410 Gone (compacted history) and hands over the full state again', async () => {
    const s = setup();
    s.source.upsert(item('a', 1));
    await waitOpen(s.source, 1);
    s.source.drop();
    s.source.remove('a');
    s.source.upsert(item('c', 7));
    s.source.compact();
    await vi.waitFor(() => expect(s.source.listCalls).toBe(2));
    await vi.waitFor(() => expect([...s.state]).toEqual([['c', 7]]));
    expect(s.syncs).toEqual([[], ['c']]);
    expect(s.watch.relists).toBe(1);
    expect(s.logs.some((l) => l.level === 'info' && /410/.test(l.message))).toBe(true);
    s.controller.abort();
    await s.done;
  });

  it('re-lists on an ERROR event with a 410 Status', async () => {
    const s = setup();
    await waitOpen(s.source, 1);
    s.source.sendError({ code: 410, reason: 'Expired', message: 'too old resource version: 1 (5)' });
    await vi.waitFor(() => expect(s.source.listCalls).toBe(2));
    s.controller.abort();
    await s.done;
  });

  it('restarts with growing backoff after errors, and logs each restart', async () => {
    const s = setup();
    await waitOpen(s.source, 1);
    s.source.watchFailures.push(apiError(503, 'ServiceUnavailable'), apiError(500, 'InternalError'));
    s.source.fail(new Error('socket hang up'));
    await waitOpen(s.source, 4);
    expect(s.sleeps).toEqual([125, 250, 500]);
    expect(s.logs.filter((l) => l.level === 'warn')).toHaveLength(3);
    expect(s.source.watchedFrom).toEqual(['100', '100', '100', '100']);
    s.controller.abort();
    await s.done;
  });

  it('backs off when the server closes every watch at once', async () => {
    const s = setup();
    for (let i = 1; i <= 3; i++) {
      await waitOpen(s.source, i);
      s.source.drop();
    }
    await waitOpen(s.source, 4);
    expect(s.sleeps).toEqual([125, 250, 500]);
    s.controller.abort();
    await s.done;
  });

  it('retries a failing list with backoff', async () => {
    const source = new FakeWatchSource<Item>();
    source.listFailures.push(apiError(503, 'ServiceUnavailable'));
    const sleeps: number[] = [];
    const watch = new ResilientWatch<Item>(
      source,
      { onSync: () => undefined, onChange: () => undefined },
      { random: () => 0.5, sleep: (ms) => (sleeps.push(ms), Promise.resolve()) },
    );
    const controller = new AbortController();
    const done = watch.run(controller.signal);
    await vi.waitFor(() => expect(source.open).toBe(1));
    expect(source.listCalls).toBe(2);
    expect(sleeps).toEqual([125]);
    controller.abort();
    await done;
  });

  it('fails loudly on errors no retry can fix', async () => {
    const s = setup();
    await waitOpen(s.source, 1);
    s.source.fail(apiError(403, 'Forbidden'));
    await expect(s.done).rejects.toMatchObject({ code: 403 });
    expect(s.logs.some((l) => l.level === 'error')).toBe(true);
  });

  it('propagates a handler exception instead of swallowing it', async () => {
    const source = new FakeWatchSource<Item>();
    const watch = new ResilientWatch<Item>(source, {
      onSync: () => undefined,
      onChange: () => {
        throw new Error('consumer bug');
      },
    });
    const done = watch.run(new AbortController().signal);
    await vi.waitFor(() => expect(source.open).toBe(1));
    source.upsert(item('a'));
    await expect(done).rejects.toThrow('consumer bug');
  });
});
