import { defaultMaxListeners, setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { linkedSignal, type LinkedSignal } from '@antidote/concurrency';
import { endpointUp, type EndpointHealth, type HealthTarget, type WaitReachableReply } from '@antidote/contracts';
import { abortListenersOf } from '../probes/probe-runner.js';
import { describeCheck } from '../readiness/readiness-evaluator.js';
import { nextProbePause, nextProbeTimeout, type ReachabilityProbe } from './probe-backoff.js';

export interface LessonWaitOptions {
  /** Probe until at least then (epoch ms); `keepUntil` extends it. */
  keepUntil: number;
  /** Longest pause between rounds of one endpoint. */
  intervalMs: number;
  /** Ends every probe and pause (the healthchecker shutting down): the wait links its own signal to it. */
  signal: AbortSignal;
  /** Each probe's result, as it comes (metrics). */
  onProbe?: (health: EndpointHealth) => void;
  /** An endpoint was found up: recorded (row, progress event) before any reply counts it. */
  onUp: (endpoint: string) => Promise<void>;
}

/** One endpoint's part of the wait: up once found up; its probe bound and its pauses keep growing as the wait goes on. */
interface EndpointWait {
  target: HealthTarget;
  up: boolean;
  last?: EndpointHealth;
}

/** What a reply says of an endpoint found up before this wait (its up time in the row): up, not probed again. */
export const recordedUp = (target: HealthTarget): EndpointHealth => ({
  name: target.name,
  host: target.host,
  reachable: true,
  latencyMs: 0,
  probes: [],
  ...(target.readiness ? { readiness: { check: describeCheck(target.readiness), ready: true, detail: 'found ready earlier in this start' } } : {}),
});

const notProbedYet = (target: HealthTarget): EndpointHealth => ({
  name: target.name,
  host: target.host,
  reachable: false,
  latencyMs: 0,
  probes: [],
  error: 'not probed yet',
});

/**
 * The wait of one live lesson's start until every endpoint is up, kept for the whole start however many
 * requests ask about it: an endpoint is probed until it is up once (reachable, and ready where it has a
 * readiness check), then never again; endpoints recorded up before (a restarted healthchecker, another
 * replica) are not probed at all; the back-off of the others (`nextProbeTimeout`, `nextProbePause` from
 * the wait's start) goes on across requests. Each request gets the state at its own deadline, or at once when all are up. With
 * nobody asking (`keepUntil` passed) it stops.
 */
export class LessonWait {
  private readonly endpoints: EndpointWait[];
  private readonly startedAt = Date.now();
  private keptUntil: number;
  private readonly changed = new EventTarget();
  /**
   * The wait's own signal, linked to `options.signal` (one listener there however many waits share it)
   * until probing ends: every probe and pause of the wait listens to this one, and its abort wakes the replies.
   */
  private readonly link: LinkedSignal;
  /** Settles when every endpoint is up, or when probing stopped (nobody asking, shut down). */
  readonly finished: Promise<void>;
  /** Probing has ended: a later request needs a new wait (which resumes from the row). */
  stopped = false;

  constructor(
    private readonly runner: ReachabilityProbe,
    targets: readonly HealthTarget[],
    alreadyUp: ReadonlySet<string>,
    private readonly options: LessonWaitOptions,
  ) {
    this.keptUntil = options.keepUntil;
    this.endpoints = targets.map((target) => ({ target, up: alreadyUp.has(target.name), ...(alreadyUp.has(target.name) ? { last: recordedUp(target) } : {}) }));
    this.link = linkedSignal([options.signal]);
    const probing = this.endpoints.filter((endpoint) => !endpoint.up);
    // Bounded by the lesson's own endpoints: each one probed holds at most one listener per probe (see
    // `abortListenersOf`) or one for its pause; and one more wakes the replies.
    setMaxListeners(Math.max(defaultMaxListeners, abortListenersOf(probing.map((endpoint) => endpoint.target)) + 1), this.link.signal);
    this.link.signal.addEventListener('abort', () => this.changed.dispatchEvent(new Event('changed')), { once: true });
    this.finished = Promise.all(probing.map((endpoint) => this.probeUntilUp(endpoint))).then(() => {
      this.stopped = true;
      this.link.dispose();
      this.changed.dispatchEvent(new Event('changed'));
    });
  }

  /** Keeps probing at least until `at` (epoch ms): each request extends it past its own deadline. */
  keepUntil(at: number): void {
    this.keptUntil = Math.max(this.keptUntil, at);
  }

  get allUp(): boolean {
    return this.endpoints.every((endpoint) => endpoint.up);
  }

  /** The state after `ms`, or as soon as every endpoint is up (or probing stopped). */
  async reply(ms: number): Promise<WaitReachableReply> {
    const waiting = new AbortController();
    const wake = (): void => {
      if (this.allUp || this.stopped || this.link.signal.aborted) waiting.abort();
    };
    this.changed.addEventListener('changed', wake);
    try {
      wake();
      await sleep(ms, undefined, { signal: waiting.signal }).catch(() => undefined);
    } finally {
      this.changed.removeEventListener('changed', wake);
    }
    return this.snapshot();
  }

  snapshot(): WaitReachableReply {
    const healthy = this.endpoints.filter((endpoint) => endpoint.up).length;
    return {
      reachable: healthy === this.endpoints.length,
      healthy,
      total: this.endpoints.length,
      elapsedMs: Date.now() - this.startedAt,
      endpoints: this.endpoints.map((endpoint) => endpoint.last ?? notProbedYet(endpoint.target)),
    };
  }

  private async probeUntilUp(endpoint: EndpointWait): Promise<void> {
    const { signal } = this.link;
    let probeMs = this.runner.timeoutMs;
    while (!signal.aborted && Date.now() <= this.keptUntil) {
      const health = await this.runner.check(endpoint.target, { signal, timeoutMs: probeMs });
      if (signal.aborted) return;
      this.options.onProbe?.(health);
      endpoint.last = health;
      if (endpointUp(health)) {
        await this.options.onUp(endpoint.target.name).catch(() => undefined); // the reply holds the truth
        endpoint.up = true;
        this.changed.dispatchEvent(new Event('changed'));
        return;
      }
      if (health.probes.length === 0) return; // nothing to probe (no ports): it never comes up
      probeMs = nextProbeTimeout(probeMs, this.runner.timeoutMs);
      await sleep(nextProbePause(Date.now() - this.startedAt, this.options.intervalMs), undefined, { signal }).catch(() => undefined);
    }
  }
}
