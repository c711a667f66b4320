// Another app's writes on the api's SQLite file (as the scheduler's, under `antictl up`): a write
// transaction that holds the lock for `holdMs` across awaits (a transaction's statements separated by a
// busy event loop), then `gapMs` without it, until told to stop. Plain JavaScript: a worker runs it untranspiled.
//
// workerData: { path, holdMs, gapMs }. Posts { transactions } when stopped.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { path, holdMs, gapMs } = workerData;
const db = new Database(path, { timeout: 10_000 });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let running = true;
let transactions = 0;
parentPort.once('message', () => (running = false));
parentPort.postMessage({ started: true });
while (running) {
  db.exec('BEGIN IMMEDIATE');
  await sleep(holdMs);
  db.exec('COMMIT');
  transactions++;
  await sleep(gapMs);
}
db.close();
parentPort.postMessage({ transactions });
