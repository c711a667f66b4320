import type { DataManager } from '@antidote/data';
import type { NamespaceRecord, ReaperCluster } from '../cluster/reaper-cluster.port.js';
import type { ReaperAction } from './reaper-action.js';
import { cutoffFor, lessonVerdict, namespaceVerdict, sessionVerdict, type TtlPolicy } from './ttl-rules.js';

export interface PassPlan {
  actions: ReaperAction[];
  /** Records or namespaces that could not be judged (logged, never aborting the pass). */
  skipped: number;
  errors: string[];
}

/** `cutoff` for a `<` query that must include records exactly at the TTL. */
const inclusive = (cutoff: Date): Date => new Date(cutoff.getTime() + 1);

/**
 * Decides what one pass does, from the database and one paged list of managed namespaces. Pure
 * decisions (ttl-rules) over candidates the queries found; one bad record is reported and skipped.
 */
export class PassPlanner {
  constructor(
    private readonly data: DataManager,
    private readonly cluster: ReaperCluster,
    private readonly policy: TtlPolicy & { removeStuckFinalizers: boolean; pageSize: number },
  ) {}

  async plan(now: Date): Promise<PassPlan> {
    const plan: PassPlan = { actions: [], skipped: 0, errors: [] };
    await this.step(plan, 'idle and failed live lessons', () => this.lessons(now, plan));
    await this.step(plan, 'sessions', () => this.sessions(now, plan));
    await this.step(plan, 'namespaces', () => this.namespaces(now, plan));
    return plan;
  }

  private async step(plan: PassPlan, what: string, run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (error) {
      plan.errors.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async lessons(now: Date, plan: PassPlan): Promise<void> {
    const idle = await this.data.work.findIdle(inclusive(cutoffFor(now, this.policy.liveLessonTTLMinutes * 60_000)));
    const failed = await this.data.work.findFailed(inclusive(cutoffFor(now, this.policy.failedLiveLessonTTLMinutes * 60_000)));
    for (const lesson of [...idle, ...failed]) {
      try {
        const failedAt = lesson.phaseTimes.failedAt ? new Date(lesson.phaseTimes.failedAt) : undefined;
        if (failedAt && Number.isNaN(failedAt.getTime())) throw new Error(`unreadable failedAt "${lesson.phaseTimes.failedAt}"`);
        // findIdle already left out persistent sessions.
        const verdict = lessonVerdict({ ...lesson, failedAt }, false, now, this.policy);
        if (verdict === 'expire-idle')
          plan.actions.push({ action: 'expire-live-lesson', target: lesson.id, reason: `idle since ${lesson.lastActiveAt.toISOString()}` });
        if (verdict === 'expire-failed')
          plan.actions.push({
            action: 'expire-failed-live-lesson',
            target: lesson.id,
            reason: `failed at ${lesson.phaseTimes.failedAt}: ${lesson.failureReason ?? ''}`,
          });
      } catch (error) {
        this.skip(plan, lesson.id, error);
      }
    }
  }

  private async sessions(now: Date, plan: PassPlan): Promise<void> {
    for (const session of await this.data.liveSessions.findIdle(inclusive(cutoffFor(now, this.policy.liveSessionTTLMinutes * 60_000)))) {
      const lessons = (await this.data.liveLessons.idsForSession(session.id)).length;
      if (sessionVerdict(session, lessons, now, this.policy) === 'delete') {
        plan.actions.push({ action: 'delete-session', target: session.id, reason: `idle since ${session.lastActiveAt.toISOString()}, no live lessons` });
      }
    }
  }

  private async namespaces(now: Date, plan: PassPlan): Promise<void> {
    const namespaces = await this.cluster.listManagedNamespaces(this.policy.pageSize);
    const records = new Set(await this.data.liveLessons.ids());
    for (const namespace of namespaces) {
      try {
        await this.judgeNamespace(namespace, records, now, plan);
      } catch (error) {
        this.skip(plan, namespace.name, error);
      }
    }
    const present = new Set(namespaces.map((namespace) => namespace.liveLessonId).filter(Boolean));
    for (const lesson of await this.data.work.expectingNamespace(cutoffFor(now, this.policy.orphanGraceSeconds * 1000))) {
      if (!present.has(lesson.id)) {
        plan.actions.push({ action: 'remove-orphan-record', target: lesson.id, reason: `status ${lesson.status} but its namespace is gone` });
      }
    }
  }

  private async judgeNamespace(namespace: NamespaceRecord, records: Set<string>, now: Date, plan: PassPlan): Promise<void> {
    const verdict = namespaceVerdict(namespace, namespace.liveLessonId ? records.has(namespace.liveLessonId) : false, now, this.policy);
    switch (verdict) {
      case 'keep':
      case 'terminating':
        return;
      case 'bad-label':
        plan.skipped++;
        plan.actions.push({ action: 'skip-bad-record', target: namespace.name, reason: 'managed namespace without a valid liveLesson label; left alone' });
        return;
      case 'orphan':
        plan.actions.push({ action: 'delete-orphan-namespace', target: namespace.name, reason: `no live lesson ${namespace.liveLessonId} in the database` });
        return;
      case 'stuck': {
        const blocking = await this.cluster.blockingResources(namespace.name);
        const details = {
          finalizers: namespace.finalizers,
          conditions: namespace.conditions,
          resources: blocking,
          terminatingSince: namespace.deletingSince?.toISOString(),
        };
        plan.actions.push({
          action: 'report-stuck-namespace',
          target: namespace.name,
          reason: `Terminating since ${namespace.deletingSince?.toISOString()}`,
          details,
        });
        if (this.policy.removeStuckFinalizers)
          plan.actions.push({
            action: 'remove-stuck-finalizers',
            target: namespace.name,
            reason: 'configured to remove finalizers of stuck namespaces',
            details: { resources: blocking },
          });
        return;
      }
    }
  }

  private skip(plan: PassPlan, target: string, error: unknown): void {
    plan.skipped++;
    plan.actions.push({ action: 'skip-bad-record', target, reason: error instanceof Error ? error.message : String(error) });
  }
}
