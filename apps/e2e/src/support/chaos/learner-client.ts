import { setTimeout as sleep } from 'node:timers/promises';

/** One answer a learner got (connection failures are not answers: the load balancer tries another api). */
export interface Answer {
  at: number;
  route: string;
  status: number;
  retryAfter?: string;
}

export interface Reply<T = Record<string, unknown>> {
  status: number;
  body: T;
}

/** Both apis' addresses as a load balancer in front of them sees them (a restarted api keeps its port). */
export type ApiAddresses = () => string[];

/** How often a request is tried on another api when one does not answer at all (killed), or answers 503 with Retry-After. */
const TRIES = 12;

/**
 * A learner's browser behind a load balancer over both apis: requests alternate between them; one that
 * gets no answer at all (a killed api) is sent to the other, as a balancer does; a 503 with Retry-After is
 * tried again after it, as the web page does. Every answer is recorded for the account (5xx included).
 */
export class LearnerClient {
  readonly answers: Answer[] = [];
  /** Requests that reached no api and were sent to the other one. */
  rerouted = 0;
  private turn = 0;

  constructor(private readonly apis: ApiAddresses) {}

  /** The api the next request goes to (round robin). */
  next(): string {
    const all = this.apis();
    return all[this.turn++ % all.length];
  }

  async call<T = Record<string, unknown>>(method: string, path: string, ip: string, body?: unknown): Promise<Reply<T>> {
    const route = `${method} ${path.replace(/\?.*$/, '').replace(/(\/exp\/live(?:lesson|session)\/)[^/]+/, '$1{id}')}`;
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(`${this.next()}${path}`, {
          method,
          headers: { 'x-forwarded-for': ip, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(30_000),
        });
      } catch (error) {
        if (attempt >= TRIES) throw error;
        this.rerouted++;
        await sleep(250 * attempt);
        continue;
      }
      const text = await response.text();
      const retryAfter = response.headers.get('retry-after') ?? undefined;
      this.answers.push({ at: Date.now(), route, status: response.status, ...(retryAfter ? { retryAfter } : {}) });
      if (response.status === 503 && retryAfter && attempt < TRIES) {
        await sleep(Number(retryAfter) * 1000);
        continue;
      }
      return { status: response.status, body: (text ? JSON.parse(text) : {}) as T };
    }
  }
}
