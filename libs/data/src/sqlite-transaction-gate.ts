import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource, QueryRunner } from 'typeorm';
import { busyDeadline, sqliteBusy } from './sqlite-busy-wait.js';

const gates = new WeakMap<DataSource, TransactionGate>();

/**
 * One transaction open on SQLite's connection at a time, and no statement from outside it inside it.
 * better-sqlite3 is one connection per process, and TypeORM gives every caller the same query runner: a
 * statement another request sent while a transaction was open ran inside that transaction and was undone
 * with it when it rolled back — a learner's new session, answered 200, was gone when the learner asked for
 * a lab (the 10,000-lesson run of 2026-12-07). So while `inTransaction` holds the gate, a statement sent
 * from any other async context waits until the transaction has ended, as it would on a connection of its
 * own on PostgreSQL; the transaction's own statements (its manager's, and any its work sends through the
 * data source) go through.
 */
export class TransactionGate {
  private readonly inside = new AsyncLocalStorage<object>();
  private held?: { owner: object; ended: Promise<void> };

  /** The gate of a SQLite data source (`waitForLocksOffTheLoop` made it), or none. */
  static of(dataSource: DataSource): TransactionGate | undefined {
    return gates.get(dataSource);
  }

  static attach(dataSource: DataSource): TransactionGate {
    const gate = new TransactionGate();
    gates.set(dataSource, gate);
    return gate;
  }

  /** Whether work from the current async context must wait for another context's transaction to end. */
  mustWait(): boolean {
    return this.held !== undefined && this.inside.getStore() !== this.held.owner;
  }

  /**
   * Runs `next` once work from the current async context may (in the same turn as the check, so no
   * transaction takes the gate in between); rejects as SQLITE_BUSY at `giveUpAt` (a transaction that waits
   * for a statement it did not send itself would otherwise wait forever).
   */
  async pass<T>(giveUpAt: number, next: () => T | Promise<T>): Promise<T> {
    if (!this.mustWait()) return next();
    const since = Date.now();
    const giveUp = new AbortController();
    const timeout = sleep(Math.max(0, giveUpAt - since), 'timeout', { signal: giveUp.signal }).catch(() => undefined);
    try {
      while (this.held && this.mustWait()) {
        if ((await Promise.race([this.held.ended, timeout])) === 'timeout') {
          throw sqliteBusy(`waited ${((Date.now() - since) / 1000).toFixed(1)} s for another request's transaction to end`);
        }
      }
      return await next();
    } finally {
      giveUp.abort();
    }
  }

  /**
   * Makes the transactions TypeORM opens on `runner` by itself — a `save` of several entities, a
   * migration — hold the gate too, from their start to their commit or rollback (outside `inTransaction`
   * nothing else would keep other requests' statements out of them). The gate's owner is the async
   * context that starts the transaction: TypeORM opens it in an async function of its own, after an
   * await, so the statements of that function (and of what it starts) are the transaction's and no other.
   */
  guard(runner: QueryRunner): void {
    const start = runner.startTransaction.bind(runner);
    let release: (() => void) | undefined;
    const ended = (): void => {
      const releasing = release;
      release = undefined;
      releasing?.();
    };
    runner.startTransaction = (isolationLevel) => {
      if (this.owned()) return start(isolationLevel); // a savepoint in the transaction holding the gate
      const owner = {};
      this.inside.enterWith(owner);
      return this.pass(busyDeadline(), () => (release = this.claim(owner))).then(() =>
        start(isolationLevel).catch((error: unknown) => {
          ended();
          throw error;
        }),
      );
    };
    for (const name of ['commitTransaction', 'rollbackTransaction'] as const) {
      const finish = runner[name].bind(runner);
      runner[name] = () => finish().finally(() => !runner.isTransactionActive && ended());
    }
  }

  /**
   * Runs `transaction` holding the gate, once any transaction holding it has ended (by `giveUpAt`): one
   * transaction at a time on the connection. Work of the transaction holding it runs at once (TypeORM
   * nests it as a savepoint).
   */
  async hold<T>(transaction: () => Promise<T>, giveUpAt = busyDeadline()): Promise<T> {
    if (this.owned()) return transaction();
    const owner = {};
    const release = await this.pass(giveUpAt, () => this.claim(owner));
    try {
      return await this.inside.run(owner, transaction);
    } finally {
      release();
    }
  }

  /** Whether the current async context holds the gate. */
  private owned(): boolean {
    return this.held !== undefined && this.inside.getStore() === this.held.owner;
  }

  /** Takes the gate for `owner` (in the turn it was found free); returns what gives it back. */
  private claim(owner: object): () => void {
    let end = (): void => undefined;
    this.held = { owner, ended: new Promise<void>((resolve) => (end = resolve)) };
    return () => {
      if (this.held?.owner === owner) this.held = undefined;
      end();
    };
  }
}
