import { setTimeout as sleep } from 'node:timers/promises';
import { LiveLessonStatus } from '@antidote/contracts';
import type { LiveLesson } from '@antidote/data';
import { LABEL, MANAGED, namespaceName } from '@antidote/lesson-objects';
import type { KubeSim } from '@antidote/kube-sim';
import { INSTANCE, type TestPlatform } from '@antidote/testing';

const SLUGS = ['network-automation', 'linux-basics', 'web-services'];

/** A live lesson the system is done with: READY, or failed with a reason (no one works on it any more). */
export const isSettled = (lesson: LiveLesson | undefined, allowFailure: boolean): boolean =>
  Boolean(lesson && ((lesson.status === LiveLessonStatus.READY && !lesson.error) || (allowFailure && lesson.error && lesson.failureReason)));

export interface ScenarioOutcome {
  sent: number;
  accepted: string[];
  /** Accepted by the api, then neither READY nor (where allowed) failed with a reason. */
  lost: string[];
  /** Managed namespaces whose live lesson has no record. */
  orphans: string[];
  /** Records in a non-terminal status (neither READY nor failed). */
  stuck: string[];
  /** Namespaces created more than once per live lesson, or pods of a READY one not created exactly once each. */
  duplicates: string[];
}

/**
 * Sends live-lesson requests through the api over HTTP, as a learner's browser does, and checks
 * afterwards that every request it accepted (200 with an id) was carried through.
 */
export class FaultLedger {
  faults = 0;
  readonly outcomes: ScenarioOutcome[] = [];
  private scenario = { sent: 0, accepted: [] as string[], namespaceCreates: 0 };

  constructor(
    private readonly platform: Pick<TestPlatform<string, KubeSim>, 'data' | 'sim'>,
    private readonly apiUrl: string,
  ) {}

  get accepted(): readonly string[] {
    return this.scenario.accepted;
  }

  begin(): void {
    this.scenario = { sent: 0, accepted: [], namespaceCreates: this.createdNamespaces() };
  }

  /** `count` requests, one new session each, `gapMs` apart; refusals (5xx while a dependency is down) are not accepted. */
  async send(count: number, gapMs = 0): Promise<void> {
    for (let i = 0; i < count; i++) {
      this.scenario.sent++;
      const id = await this.requestOne(SLUGS[i % SLUGS.length]).catch(() => undefined);
      if (id) this.scenario.accepted.push(id);
      if (gapMs > 0) await sleep(gapMs);
    }
  }

  /** Waits until every accepted live lesson settled (or `timeoutMs` passed), then records what went wrong. */
  async settle(allowFailure: boolean, timeoutMs: number): Promise<ScenarioOutcome> {
    const deadline = Date.now() + timeoutMs;
    let lessons: LiveLesson[] = [];
    const unsettled = () =>
      this.scenario.accepted.filter(
        (id) =>
          !isSettled(
            lessons.find((lesson) => lesson.id === id),
            true,
          ),
      );
    for (let round = 0; round === 0 || (unsettled().length > 0 && Date.now() < deadline); round++) {
      if (round > 0) await sleep(250);
      lessons = (await this.platform.data.liveLessons.list().catch(() => undefined)) ?? lessons;
    }
    const lost = this.scenario.accepted.flatMap((id) => {
      const lesson = lessons.find((candidate) => candidate.id === id);
      if (!lesson) return [`${id}: no record`];
      return isSettled(lesson, allowFailure) ? [] : [`${id}: ${lesson.status}${lesson.error ? ` failed: ${lesson.failureReason}` : ''}`];
    });
    const outcome: ScenarioOutcome = { sent: this.scenario.sent, accepted: [...this.scenario.accepted], lost, ...(await this.audit()) };
    this.outcomes.push(outcome);
    return outcome;
  }

  summary(): string {
    const sum = (pick: (outcome: ScenarioOutcome) => number) => this.outcomes.reduce((total, outcome) => total + pick(outcome), 0);
    return `faults injected ${this.faults}, requests sent ${sum((o) => o.sent)}, lost ${sum((o) => o.lost.length)}, orphans ${sum((o) => o.orphans.length)}, stuck ${sum((o) => o.stuck.length)}`;
  }

  private async requestOne(lessonSlug: string): Promise<string | undefined> {
    const session = await this.post('/exp/livesession', {});
    if (session.status !== 200) return undefined;
    const lesson = await this.post('/exp/livelesson', { lessonSlug, sessionId: session.body.ID, lessonStage: 0 });
    return lesson.status === 200 ? lesson.body.id : undefined;
  }

  private async post(path: string, body: unknown): Promise<{ status: number; body: Record<string, string> }> {
    const response = await fetch(`${this.apiUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Record<string, string> };
  }

  private createdNamespaces(): number {
    return this.platform.sim.counters.requests().filter((r) => r.verb === 'create' && r.resource === 'namespaces' && r.code === 201).length;
  }

  private async audit(): Promise<Omit<ScenarioOutcome, 'sent' | 'accepted' | 'lost'>> {
    const { sim, data } = this.platform;
    const lessons = await data.liveLessons.list();
    const known = new Set(lessons.map((lesson) => lesson.id));
    const managed = sim
      .list('namespaces')
      .filter((ns) => ns.metadata.labels?.[LABEL.managed] === MANAGED && ns.metadata.labels?.[LABEL.antidoteId] === INSTANCE);
    const orphans = managed.filter((ns) => !known.has(ns.metadata.labels?.[LABEL.liveLesson] ?? '')).map((ns) => ns.metadata.name ?? '');
    const stuck = lessons.filter((lesson) => !isSettled(lesson, true)).map((lesson) => lesson.id);
    const duplicates: string[] = [];
    const podCreates = new Map<string, number>();
    for (const r of sim.counters.requests())
      if (r.verb === 'create' && r.resource === 'pods' && r.code === 201 && r.namespace) podCreates.set(r.namespace, (podCreates.get(r.namespace) ?? 0) + 1);
    const ready = lessons.filter((lesson) => this.scenario.accepted.includes(lesson.id) && isSettled(lesson, false));
    for (const { id } of ready) {
      const namespace = namespaceName(INSTANCE, id);
      const endpointPods = sim.list('pods', namespace).filter((pod) => !pod.metadata.labels?.[LABEL.configPod]).length;
      if ((podCreates.get(namespace) ?? 0) !== endpointPods) duplicates.push(`${id}: ${podCreates.get(namespace)} pod creates for ${endpointPods} pods`);
    }
    const namespaceCreates = this.createdNamespaces() - this.scenario.namespaceCreates;
    if (namespaceCreates > this.scenario.accepted.length)
      duplicates.push(`${namespaceCreates} namespaces created for ${this.scenario.accepted.length} live lessons`);
    return { orphans, stuck, duplicates };
  }
}
