import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Which Kubernetes writes go first when writes are bounded (`maxConcurrentWrites`): those of the work
 * admitted first. A lesson's operation takes a ticket when it is admitted and runs under it; every write
 * it makes waits behind the writes of older tickets only. So in a burst the first lessons finish first
 * instead of every lesson's writes interleaving and all of them finishing together. A write made outside
 * any ticket (housekeeping) takes a fresh one when it is made.
 */
const tickets = new AsyncLocalStorage<number>();
let issued = 0;

/** A new admission ticket: later than every one issued before. */
export function admissionTicket(): number {
  return ++issued;
}

/** Runs `work` so that its Kubernetes writes rank by `ticket`. */
export function withWritePriority<T>(ticket: number, work: () => T): T {
  return tickets.run(ticket, work);
}

/** The rank of a write made now: the ticket of the work it belongs to, else a fresh one. */
export function writeRank(): number {
  return tickets.getStore() ?? admissionTicket();
}
