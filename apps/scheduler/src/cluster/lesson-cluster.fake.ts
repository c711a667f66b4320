import type { LessonCluster, LessonPlan, ManagedNamespace } from './lesson-cluster.port.js';

type Step = 'provision' | 'waitForPods' | 'configure' | 'podLogs' | 'deleteNamespace' | 'labelNamespace';

/**
 * An in-memory LessonCluster for unit specs: namespaces in a map, every call in `calls` (in order),
 * a failure or a hold (released by the spec, or by the operation's AbortSignal) per step.
 */
export class FakeLessonCluster implements LessonCluster {
  readonly namespaces = new Map<string, ManagedNamespace>();
  /** `provision ns`, `configure ns stage 1`, … in call order. */
  readonly calls: string[] = [];
  /** The configuration stage each namespace last ran. */
  readonly configured = new Map<string, number>();
  /** Labels merged into each namespace by `labelNamespace`. */
  readonly labels = new Map<string, Record<string, string>>();
  podLogText = '';
  private readonly failures = new Map<Step, Error>();
  private readonly holds = new Map<Step, { reached: () => void; released: Promise<void>; release: () => void }>();

  /** The next calls of `step` fail with `error` (until `succeed`). */
  fail(step: Step, error: Error): void {
    this.failures.set(step, error);
  }

  succeed(step: Step): void {
    this.failures.delete(step);
  }

  /** The next call of `step` waits until `release()` or its signal aborts; `reached` resolves when it is waiting. */
  hold(step: Step): { reached: Promise<void>; release: () => void } {
    let reached!: () => void;
    let release!: () => void;
    const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.holds.set(step, { reached, released, release });
    return { reached: reachedPromise, release };
  }

  async provision(plan: LessonPlan, signal: AbortSignal): Promise<Map<string, string>> {
    await this.step('provision', plan.namespace, signal);
    if (!this.namespaces.has(plan.namespace))
      this.namespaces.set(plan.namespace, { name: plan.namespace, liveLessonId: plan.liveLesson.id, createdAt: new Date(), terminating: false });
    return new Map(plan.liveLesson.endpoints.map((endpoint) => [endpoint.name, `${endpoint.name}.${plan.namespace}.svc`]));
  }

  async waitForPods(plan: LessonPlan, _timeoutMs: number, signal: AbortSignal): Promise<void> {
    await this.step('waitForPods', plan.namespace, signal);
  }

  async configure(plan: LessonPlan, stage: number, _timeouts: { oldJobsGoneMs: number; jobsMs: number }, signal: AbortSignal): Promise<void> {
    await this.step('configure', `${plan.namespace} stage ${stage}`, signal);
    this.configured.set(plan.namespace, stage);
  }

  async podLogs(namespace: string, podNames: readonly string[]): Promise<string> {
    await this.step('podLogs', `${namespace} ${podNames.join(',')}`);
    return this.podLogText;
  }

  async deleteNamespace(namespace: string, _timeoutMs: number, signal: AbortSignal): Promise<void> {
    await this.step('deleteNamespace', namespace, signal);
    this.namespaces.delete(namespace);
  }

  async labelNamespace(namespace: string, labels: Record<string, string>, signal: AbortSignal): Promise<void> {
    await this.step('labelNamespace', namespace, signal);
    this.labels.set(namespace, { ...this.labels.get(namespace), ...labels });
  }

  namespaceExists(namespace: string): Promise<boolean> {
    return Promise.resolve(this.namespaces.has(namespace));
  }

  listManagedNamespaces(): Promise<ManagedNamespace[]> {
    this.calls.push('listManagedNamespaces');
    return Promise.resolve([...this.namespaces.values()].map((namespace) => ({ ...namespace })));
  }

  private async step(step: Step, detail: string, signal?: AbortSignal): Promise<void> {
    this.calls.push(`${step} ${detail}`);
    const hold = this.holds.get(step);
    if (hold) {
      this.holds.delete(step);
      hold.reached();
      await (signal ? Promise.race([hold.released, aborted(signal)]) : hold.released);
    }
    signal?.throwIfAborted();
    const failure = this.failures.get(step);
    if (failure) throw failure;
  }
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason as Error);
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });
}
