import { createRequire } from 'node:module';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { makeImage, testDatabase, type TestDatabase } from '@antidote/testing';
import type { EntitySubscriberInterface } from 'typeorm';
import { ImageEntity } from './entities/index.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SQLITE_BUSY_WAIT_MS } from './sqlite-busy-wait.js';
import { onStatement } from './statement-log.js';
import { TransactionGate } from './sqlite-transaction-gate.js';
import { inTransaction } from './transaction.js';

/** Another connection on the file (another app under `npm start`). */
const Database = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => { exec(sql: string): void; close(): void };

/** A promise and the function that settles it: a step of a test, taken when the test says. */
function step(): { reached: Promise<void>; reach: () => void } {
  let reach = (): void => undefined;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  return { reached, reach };
}

/**
 * A transaction of `inTransaction` with a read done, held open until `end` — which makes it throw
 * `error` when given one (it rolls back), else commit. Resolves once the transaction is open.
 */
async function transactionHeldOpen(db: TestDatabase): Promise<{ done: Promise<void>; end: (error?: Error) => void }> {
  const inside = step();
  const ended = step();
  let failure: Error | undefined;
  const done = inTransaction(db.data.dataSource, async (manager) => {
    await manager.query('SELECT COUNT(*) FROM live_sessions');
    inside.reach();
    await ended.reached;
    if (failure) throw failure;
  });
  await inside.reached;
  return {
    done,
    end: (error) => {
      failure = error;
      ended.reach();
    },
  };
}

/**
 * SQLite is one connection per process: a statement sent while another request's transaction is open
 * must not run inside it (it would be undone by that transaction's rollback after its caller was told it
 * was done).
 */
describe('SQLite: one transaction at a time on the connection, and nothing else inside it', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await testDatabase('sqlite');
  });
  afterAll(async () => {
    await db?.close();
  });

  it('keeps a session created while another transaction was open, though that transaction rolls back', async () => {
    const transaction = await transactionHeldOpen(db);
    const created = db.data.liveSessions.create({ id: 'created-meanwhile', sourceIp: '127.0.0.1' });
    transaction.end(new Error('refused by the transaction’s own rule'));
    await expect(transaction.done).rejects.toThrow(/refused/);
    await created;
    expect(await db.data.liveSessions.find('created-meanwhile')).toMatchObject({ id: 'created-meanwhile' });
  });

  it("keeps a session created while TypeORM's own transaction (a save of several entities) was open, though it rolls back", async () => {
    const inside = step();
    const fail = step();
    const refusing: EntitySubscriberInterface<ImageEntity> = {
      listenTo: () => ImageEntity,
      afterInsert: async () => {
        inside.reach();
        await fail.reached;
        throw new Error('refused by a rule of the save');
      },
    };
    const { subscribers } = db.data.dataSource;
    subscribers.push(refusing);
    try {
      const saved = db.data.curriculum.insertImages([makeImage({ slug: 'saved-a' }), makeImage({ slug: 'saved-b' })]);
      await inside.reached;
      const created = db.data.liveSessions.create({ id: 'created-during-save', sourceIp: '127.0.0.1' });
      await nextTurn(); // time for the statement to join the save's transaction, were it let in
      fail.reach();
      await expect(saved).rejects.toThrow(/refused/);
      await created;
    } finally {
      subscribers.splice(subscribers.indexOf(refusing), 1);
    }
    expect(await db.data.liveSessions.find('created-during-save')).toMatchObject({ id: 'created-during-save' });
    expect((await db.data.curriculum.listImages()).map((image) => image.slug)).not.toContain('saved-a');
  });

  it("lets the transaction's own work read through the data source while it is open (no deadlock)", async () => {
    await db.data.liveSessions.create({ id: 'read-inside', sourceIp: '127.0.0.1' });
    const found = await inTransaction(db.data.dataSource, async (manager) => {
      await manager.query('SELECT 1');
      return db.data.liveSessions.find('read-inside');
    });
    expect(found).toMatchObject({ id: 'read-inside' });
  });

  it('runs a transaction asked for inside another as part of it (no wait for itself)', async () => {
    await expect(
      inTransaction(db.data.dataSource, async (manager) => {
        await manager.query(`INSERT INTO live_sessions (id, source_ip, persistent, created_at, last_active_at) VALUES ('tx-outer', '127.0.0.1', 0, 0, 0)`);
        await inTransaction(db.data.dataSource, (inner) => inner.query('SELECT 1'));
        throw new Error('the outer one rolls back');
      }),
    ).rejects.toThrow(/outer/);
    expect(await db.data.liveSessions.find('tx-outer')).toBeUndefined();
  });

  it('runs two transactions one after the other, each with its own writes', async () => {
    const first = step();
    const a = inTransaction(db.data.dataSource, async (manager) => {
      await manager.query(`INSERT INTO live_sessions (id, source_ip, persistent, created_at, last_active_at) VALUES ('tx-a', '127.0.0.1', 0, 0, 0)`);
      await first.reached;
      throw new Error('a rolls back');
    });
    const b = inTransaction(db.data.dataSource, async (manager) => {
      await manager.query(`INSERT INTO live_sessions (id, source_ip, persistent, created_at, last_active_at) VALUES ('tx-b', '127.0.0.1', 0, 0, 0)`);
    });
    first.reach();
    await expect(a).rejects.toThrow(/rolls back/);
    await b;
    expect(await db.data.liveSessions.find('tx-a')).toBeUndefined();
    expect(await db.data.liveSessions.find('tx-b')).toMatchObject({ id: 'tx-b' });
  });

  it('sends a statement in the same turn when no transaction is open (nothing awaited before it)', async () => {
    const heard: string[] = [];
    const stop = onStatement(db.data.dataSource, (sql) => void heard.push(sql));
    try {
      const sent = db.data.dataSource.query('SELECT 42 AS answer');
      expect(heard).toEqual(['SELECT 42 AS answer']);
      await expect(sent).resolves.toEqual([{ answer: 42 }]);
    } finally {
      stop();
    }
  });

  it('fails a statement busy, rather than waiting for ever, when another transaction holds the gate past the wait', async () => {
    const gate = new TransactionGate();
    const release = step();
    const inside = step();
    const holding = gate.hold(async () => {
      inside.reach();
      await release.reached;
    });
    await inside.reached;
    await expect(gate.pass(Date.now() + 1, () => 'ran')).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    await expect(gate.hold(() => Promise.resolve('ran'), Date.now() + 1)).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    release.reach();
    await holding;
    await expect(gate.pass(Date.now() + 1, () => 'ran')).resolves.toBe('ran');
  });

  it('fails the statements whose bound passed while they waited in line for the lock, without asking SQLite again', async () => {
    const holder = new Database(db.url.slice('sqlite:'.length));
    const asked = new Map<string, number>();
    const stop = onStatement(db.data.dataSource, (sql, parameters) => {
      const id = (parameters as unknown[] | undefined)?.find((value) => typeof value === 'string' && value.startsWith('in-line-'));
      if (sql.startsWith('INSERT') && typeof id === 'string') asked.set(id, (asked.get(id) ?? 0) + 1);
    });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      holder.exec('BEGIN IMMEDIATE');
      const ids = ['in-line-1', 'in-line-2', 'in-line-3'];
      const writes = ids.map((id) =>
        db.data.liveSessions.create({ id, sourceIp: '127.0.0.1' }).then(
          () => 'written',
          (error: unknown) => error,
        ),
      );
      // Each refused once; the first in line asks again while its bound lasts.
      await vi.waitFor(() => expect(asked.get('in-line-1')).toBeGreaterThanOrEqual(2));
      expect([asked.get('in-line-2'), asked.get('in-line-3')]).toEqual([1, 1]);
      vi.setSystemTime(Date.now() + SQLITE_BUSY_WAIT_MS);
      for (const outcome of await Promise.all(writes)) expect(outcome).toMatchObject({ driverError: { code: 'SQLITE_BUSY' } });
      // The two behind it were past their bound at their turn: refused without asking again.
      expect([asked.get('in-line-2'), asked.get('in-line-3')]).toEqual([1, 1]);
    } finally {
      vi.useRealTimers();
      stop();
      holder.exec('ROLLBACK');
      holder.close();
    }
  });

  it('gives a statement one bound for its wait at the gate and its busy retries together', async () => {
    const holder = new Database(db.url.slice('sqlite:'.length));
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const transaction = await transactionHeldOpen(db);
      const write = db.data.liveSessions.create({ id: 'past-its-bound', sourceIp: '127.0.0.1' });
      holder.exec('BEGIN IMMEDIATE');
      // The write waited its whole bound at the gate; refused busy after it, it is not given a new one.
      vi.setSystemTime(Date.now() + SQLITE_BUSY_WAIT_MS);
      transaction.end();
      await transaction.done;
      await expect(write).rejects.toMatchObject({ driverError: { code: 'SQLITE_BUSY' } });
    } finally {
      vi.useRealTimers();
      holder.close();
    }
    expect(await db.data.liveSessions.find('past-its-bound')).toBeUndefined();
  });
});
