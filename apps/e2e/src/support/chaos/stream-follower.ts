import { request, type ClientRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LearnerClient } from './learner-client.js';

/** A `status` event as a learner's page got it, and when. */
export interface SeenStatus {
  at: number;
  status: string;
  stage: number;
  error: boolean;
  deleted: boolean;
}

/**
 * A learner's page following its lab's event stream as the browser's EventSource does: when the stream
 * drops without a final state (its api was killed), it connects again, to whichever api answers, and
 * gets the current state first. It ends at READY (at the stage awaited), an error, a deletion, or a 404
 * (the lab is gone).
 */
export class StreamFollower {
  readonly seen: SeenStatus[] = [];
  reconnects = 0;
  gone = false;
  private stopped = false;
  private current?: ClientRequest;

  constructor(
    private readonly client: LearnerClient,
    readonly liveLessonId: string,
    private readonly ip: string,
  ) {}

  get last(): SeenStatus | undefined {
    return this.seen.at(-1);
  }

  /** Follows until a final state for `stage` (or the lab is gone, or `stop()`); returns the last status seen. */
  async follow(stage = 0): Promise<SeenStatus | undefined> {
    while (!this.stopped && !this.isFinal(stage)) {
      const status = await this.once();
      if (status === 404) this.gone = true;
      if (this.gone || this.stopped || this.isFinal(stage)) break;
      this.reconnects++;
      await sleep(1000);
    }
    return this.last;
  }

  stop(): void {
    this.stopped = true;
    this.current?.destroy();
  }

  private isFinal(stage: number): boolean {
    const last = this.last;
    return !!last && (last.error || last.deleted || (last.status === 'READY' && last.stage === stage));
  }

  /** One connection: resolves with its HTTP status when it ends or fails (0: no answer). */
  private once(): Promise<number> {
    return new Promise((resolve) => {
      const outgoing = request(`${this.client.next()}/exp/livelesson/${this.liveLessonId}/events`, { headers: { 'x-forwarded-for': this.ip } }, (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
          return;
        }
        let buffer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          buffer += chunk;
          for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (!/^event: status$/m.test(block)) continue;
            const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? '{}') as { status?: string; stage?: number; error?: boolean; deleted?: boolean };
            this.seen.push({ at: Date.now(), status: data.status ?? '', stage: data.stage ?? 0, error: data.error === true, deleted: data.deleted === true });
          }
        });
        response.on('end', () => resolve(200));
        response.on('error', () => resolve(0));
      });
      this.current = outgoing;
      outgoing.setTimeout(600_000);
      outgoing.on('error', () => resolve(0));
      outgoing.end();
    });
  }
}
