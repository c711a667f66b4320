import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';

/** Past this wait for another request's transaction, a statement fails as SQLite being busy (the api answers 503). */
const GATE_WAIT_MS = 10_000;

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

  /**
   * Resolves when a statement sent from the current async context may run; rejects as SQLITE_BUSY after
   * `waitMs` (a transaction that waits for a statement it did not send itself would otherwise wait forever).
   */
  async passage(waitMs = GATE_WAIT_MS): Promise<void> {
    if (!this.held || this.inside.getStore() === this.held.owner) return;
    const giveUp = new AbortController();
    const timeout = sleep(waitMs, 'timeout', { signal: giveUp.signal }).catch(() => undefined);
    try {
      while (this.held && this.inside.getStore() !== this.held.owner) {
        if ((await Promise.race([this.held.ended, timeout])) === 'timeout') {
          throw Object.assign(new Error(`SQLite busy: waited ${waitMs / 1000} s for another request's transaction to end`), { code: 'SQLITE_BUSY' });
        }
      }
    } finally {
      giveUp.abort();
    }
  }

  /** Runs `transaction` holding the gate (after any transaction holding it has ended). */
  async hold<T>(transaction: () => Promise<T>): Promise<T> {
    await this.passage();
    const owner = {};
    let end = (): void => undefined;
    this.held = { owner, ended: new Promise<void>((resolve) => (end = resolve)) };
    try {
      return await this.inside.run(owner, transaction);
    } finally {
      this.held = undefined;
      end();
    }
  }
}
