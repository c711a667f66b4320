import { createDataSource, DataManager, isDatabaseUnavailable, runMigrations } from './index.js';
import { startPostgres, type PostgresProcess } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** A PostgreSQL of this file's own, stopped and started under a DataManager that stays open. */
describe('a DataManager across PostgreSQL restarts', () => {
  let postgres: PostgresProcess;
  let url: string;
  const managers: DataManager[] = [];
  const open = async (connectRetrySeconds: number): Promise<DataManager> => {
    const dataSource = createDataSource({ url, poolSize: 2, migrateOnStart: false, connectRetrySeconds });
    await dataSource.initialize();
    const data = new DataManager(dataSource);
    managers.push(data);
    return data;
  };

  beforeAll(async () => {
    postgres = await startPostgres();
    url = await postgres.createDatabase('restart');
    await runMigrations((await open(0)).dataSource);
  });
  afterAll(async () => {
    for (const data of managers) await data.close();
    await postgres?.stop();
  });

  it('fails a statement while the server is down with an error classed as unavailable, and works again once it is back', async () => {
    const data = await open(0);
    expect(await data.liveLessons.count()).toBe(0);
    let failure: unknown;
    await postgres.restart(async () => {
      failure = await data.liveLessons.count().then(
        () => undefined,
        (error: unknown) => error,
      );
    }, 'immediate');
    expect(failure).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(failure)).toBe(true);
    expect(await data.liveLessons.count()).toBe(0);
  });

  it("fails a statement the server is cut off in the middle of with a code that says so (ECONNRESET, or the server's own)", async () => {
    const data = await open(0);
    const running = data.dataSource.query('SELECT pg_sleep(60)').then(
      () => undefined,
      (error: unknown) => error,
    );
    // The statement is under way on the server before it goes.
    await expect
      .poll(async () =>
        Number((await data.dataSource.query<{ n: string }[]>("SELECT COUNT(*) AS n FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)'"))[0].n),
      )
      .toBe(1);
    await postgres.restart(0, 'immediate');
    const failure = (await running) as { code?: unknown };
    expect(isDatabaseUnavailable(failure)).toBe(true);
    expect(failure.code).toEqual(expect.any(String));
  });

  it('holds a statement sent while the server restarts until it is back (within connectRetrySeconds), so the caller never sees the restart', async () => {
    const data = await open(600);
    expect(await data.ping()).toBe(true);
    let pending: Promise<number> | undefined;
    await postgres.restart(async () => {
      pending = data.liveLessons.count();
      // Still waiting for the server, not failed: it is down until this callback returns.
      expect(
        await Promise.race([
          pending.then(
            () => 'answered',
            () => 'failed',
          ),
          new Promise((resolve) => setTimeout(resolve, 300, 'waiting')),
        ]),
      ).toBe('waiting');
    }, 'immediate');
    expect(await pending).toBe(0);
  });
});
