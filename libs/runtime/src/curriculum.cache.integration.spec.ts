import { parseConfig } from '@antidote/config';
import { EventSubjects } from '@antidote/contracts';
import { logStatements } from '@antidote/data';
import { BusClient, NatsConnectionManager } from '@antidote/messaging';
import { makeCurriculum, makeLesson, testDatabase, testNats, type TestDatabase, type TestNats } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CurriculumCache } from './curriculum.cache.js';

/** A period no test waits for: what a cache learns here, it learns from the bus or its own check. */
const NEVER_MS = 3_600_000;

/**
 * Two replicas holding the curriculum in memory (an api's and a scheduler's), on a real database and a
 * real nats-server: the import another replica announces reaches both; one nobody announced is found by
 * the curriculum record.
 */
describe('the curriculum held in memory by two replicas', () => {
  let nats: TestNats;
  let db: TestDatabase;
  const managers: NatsConnectionManager[] = [];
  let announcer: BusClient;
  let replicas: CurriculumCache[] = [];

  const busAs = async (identity: 'api' | 'scheduler'): Promise<BusClient> => {
    const { config } = parseConfig({ instanceId: 'test', curriculumDir: '/c', ...nats.loginAs(identity) });
    const manager = new NatsConnectionManager(config, `curriculum-${identity}-${managers.length}`);
    managers.push(manager);
    await manager.connected();
    return new BusClient(manager, { requestTimeoutMs: 10_000 });
  };
  /** The database's clock: each import is written a second after the one before. */
  let clock = Date.UTC(2026, 0, 1);
  const importNamed = (name: string) => {
    clock += 1_000;
    return db.data.curriculum.replaceCurriculum(makeCurriculum({ lessons: [makeLesson({ slug: 'one', name })] }));
  };

  beforeAll(async () => {
    nats = await testNats();
    db = await testDatabase('sqlite', () => new Date(clock));
    await importNamed('first');
    announcer = await busAs('api');
    replicas = [new CurriculumCache(db.data, await busAs('api'), NEVER_MS), new CurriculumCache(db.data, await busAs('scheduler'), NEVER_MS)];
    for (const replica of replicas) replica.onApplicationBootstrap();
    await Promise.all(replicas.map((replica) => replica.listening));
  });
  afterAll(async () => {
    for (const replica of replicas) replica.onApplicationShutdown();
    for (const manager of managers) await manager.drain();
    await nats?.stop();
    await db?.close();
  });

  it('reads the curriculum once, then answers from memory', async () => {
    for (const replica of replicas) expect((await replica.lesson('one'))?.name).toBe('first');
    const log = logStatements(db.data.dataSource);
    for (const replica of replicas) for (let i = 0; i < 3; i++) await replica.imagesOf((await replica.lesson('one'))!);
    log.stop();
    expect(log.statements).toEqual([]);
  });

  it('loads the import another replica announces, on every replica', async () => {
    await importNamed('second');
    // Unannounced, nothing looks at the record yet: the import held is still the first.
    for (const replica of replicas) expect((await replica.lesson('one'))?.name).toBe('first');
    announcer.publish(EventSubjects.curriculumImported, { at: new Date().toISOString() });
    for (const replica of replicas) await expect.poll(async () => (await replica.lesson('one'))?.name).toBe('second');
  });

  it('finds an import nobody announced (a tool writing the database) by the curriculum record', async () => {
    await importNamed('third');
    const [api] = replicas;
    expect((await api.lesson('one'))?.name).toBe('second');
    await api.check();
    expect((await api.lesson('one'))?.name).toBe('third');
  });
});
