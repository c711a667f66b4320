import type { Image, Lesson } from '@antidote/curriculum';
import type { LiveLesson } from '@antidote/data';

/** Everything the cluster side needs to know about one live lesson. */
export interface LessonPlan {
  namespace: string;
  liveLesson: LiveLesson;
  lesson: Lesson;
  /** Images of the lesson's endpoints, by slug. */
  images: ReadonlyMap<string, Image>;
}

export interface ManagedNamespace {
  name: string;
  /** The `liveLesson` label; undefined when missing or unreadable. */
  liveLessonId?: string;
  createdAt?: Date;
  terminating: boolean;
}

/**
 * The scheduler's view of Kubernetes. One implementation drives the real API (`KubeLessonCluster`);
 * unit tests use a fake. Every method is idempotent: calling it again after a crash adopts what exists.
 */
export interface LessonCluster {
  /** Namespace, policies, quota, secrets, NADs, pods (in lesson order), services, ingresses. Returns the service address per endpoint. */
  provision(plan: LessonPlan, signal: AbortSignal): Promise<Map<string, string>>;
  /** Resolves when every endpoint pod is Running; rejects fast on pull failures, crashes and init failures (with logs). */
  waitForPods(plan: LessonPlan, timeoutMs: number, signal: AbortSignal): Promise<void>;
  /** Replaces the configuration jobs with the given stage's and waits for them to succeed. */
  configure(plan: LessonPlan, stage: number, timeouts: { oldJobsGoneMs: number; jobsMs: number }, signal: AbortSignal): Promise<void>;
  /** The main containers' recent logs, for failure reasons. */
  podLogs(namespace: string, podNames: readonly string[]): Promise<string>;
  /** Deletes the namespace and resolves once it is gone. */
  deleteNamespace(namespace: string, timeoutMs: number, signal: AbortSignal): Promise<void>;
  namespaceExists(namespace: string): Promise<boolean>;
  /** Merges labels into the namespace's (a claimed warm-pool member gets its learner's session). */
  labelNamespace(namespace: string, labels: Record<string, string>, signal: AbortSignal): Promise<void>;
  /** This instance's managed namespaces (paged list). */
  listManagedNamespaces(): Promise<ManagedNamespace[]>;
}

export const LESSON_CLUSTER = Symbol.for('antidote.scheduler.lesson-cluster');
