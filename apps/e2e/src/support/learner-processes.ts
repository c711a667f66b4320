import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { expClient } from './exp-client.js';
import { learner, unanswered, type Held, type HeldLesson } from './platform-usage.js';

const WORKER = join(import.meta.dirname, '..', '..', 'test', 'learners.worker.mjs');

/** Refusals with a retry hint the learners waited out, by HTTP status. */
export type Refusals = Record<string, number>;

/**
 * The address of each of `count` learners seated `perAddress` to a classroom: classrooms behind
 * 127.<subnet>.x.y (loopback: Linux routes all of 127.0.0.0/8 to lo, so a socket may bind any of them).
 */
export function classroomAddresses(subnet: number, count: number, perAddress: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const room = Math.floor(i / perAddress);
    return `127.${subnet}.${Math.floor(room / 250)}.${(room % 250) + 1}`;
  });
}

const sumRefusals = (all: Refusals[]): Refusals => {
  const sum: Refusals = {};
  for (const refusals of all) for (const [status, count] of Object.entries(refusals)) sum[status] = (sum[status] ?? 0) + count;
  return sum;
};

/**
 * Learners driven from several processes of their own (test/learners.worker.mjs), each holding the
 * connections of the classrooms given to it: one client process's sockets and event loop are not what
 * the benchmark measures. A classroom (an address) always goes to the same process.
 */
export class LearnerProcesses {
  private readonly children: ChildProcess[];

  constructor(processes: number) {
    this.children = Array.from({ length: processes }, () => fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  }

  private byProcess<T extends { address: string }>(items: T[]): T[][] {
    const shares: T[][] = this.children.map(() => []);
    for (const item of items) {
      const octets = item.address.split('.').map(Number);
      shares[(octets[2] * 250 + octets[3]) % shares.length].push(item);
    }
    return shares;
  }

  private ask<T>(child: ChildProcess, message: Record<string, unknown> & { kind: string }): Promise<T> {
    return new Promise((resolve, reject) => {
      const onMessage = (reply: { kind: string }) => {
        if (reply.kind !== message.kind) return;
        child.off('exit', onExit);
        child.off('message', onMessage);
        resolve(reply as T);
      };
      const onExit = (code: number | null) => reject(new Error(`a learner process exited (${code}) before answering ${message.kind}`));
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send(message);
    });
  }

  /** Every learner at once: a session, a lab, its event stream to the end; the outcomes in the order given. */
  async burst(api: string, slug: string, addresses: string[]): Promise<{ outcomes: Held[]; refusals: Refusals }> {
    const shares = this.byProcess(addresses.map((address, index) => ({ address, index })));
    const replies = await Promise.all(
      shares.map((share, i) =>
        this.ask<{ outcomes: (Omit<Held, 'held'> & { held?: Omit<HeldLesson, 'ip'> & { address: string } })[]; refusals: Refusals }>(this.children[i], {
          kind: 'burst',
          api,
          slug,
          learners: share,
        }),
      ),
    );
    const outcomes: Held[] = new Array<Held>(addresses.length);
    replies.forEach((reply, i) =>
      reply.outcomes.forEach((outcome, j) => {
        outcomes[shares[i][j].index] = outcome.held
          ? { ms: outcome.ms, ready: true, held: { ip: outcome.held.address, session: outcome.held.session, id: outcome.held.id } }
          : (outcome as Held);
      }),
    );
    return { outcomes, refusals: sumRefusals(replies.map((reply) => reply.refusals)) };
  }

  /** A keep-alive of every held lesson from its learner's address, `concurrency` at once in each process. */
  async keepAlive(api: string, slug: string, held: HeldLesson[], concurrency: number): Promise<{ failures: string[]; refusals: Refusals }> {
    const shares = this.byProcess(held.map((lesson) => ({ address: lesson.ip, session: lesson.session, id: lesson.id })));
    const replies = await Promise.all(
      shares.map((share, i) =>
        this.ask<{ failures: string[]; refusals: Refusals }>(this.children[i], { kind: 'keepAlive', api, slug, held: share, concurrency }),
      ),
    );
    return { failures: replies.flatMap((reply) => reply.failures), refusals: sumRefusals(replies.map((reply) => reply.refusals)) };
  }

  stop(): void {
    for (const child of this.children) child.kill();
  }
}

/**
 * All learners in the test's own process, over its one loopback address, each named by an
 * x-forwarded-for address in 10/8 (127.s.x.y becomes 10.s.x.y): how the benchmark drove them before
 * several processes did. No retry of refusals.
 */
export class OneProcessLearners {
  async burst(api: string, slug: string, addresses: string[]): Promise<{ outcomes: Held[]; refusals: Refusals }> {
    return { outcomes: await Promise.all(addresses.map((address) => learner(api, slug, address.replace(/^127\./, '10.')))), refusals: {} };
  }

  async keepAlive(api: string, slug: string, held: HeldLesson[], concurrency: number): Promise<{ failures: string[]; refusals: Refusals }> {
    const failures: string[] = [];
    for (let at = 0; at < held.length; at += concurrency) {
      const round = await Promise.all(
        held.slice(at, at + concurrency).map(async ({ ip, session, id }) => {
          try {
            const answer = await expClient(api, ip).post<{ id: string; message?: string }>('/exp/livelesson', {
              sessionId: session,
              lessonSlug: slug,
              lessonStage: 0,
            });
            return answer.status === 200 && answer.body.id === id ? undefined : `keep-alive HTTP ${answer.status}: ${answer.body.message ?? ''}`;
          } catch (error) {
            return unanswered(error);
          }
        }),
      );
      failures.push(...round.filter((why) => why !== undefined));
    }
    return { failures, refusals: {} };
  }

  stop(): void {}
}
