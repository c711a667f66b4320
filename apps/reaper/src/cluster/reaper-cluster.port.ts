/** What the reaper sees of a managed namespace (from one paged list). */
export interface NamespaceRecord {
  name: string;
  /** The `liveLesson` label; undefined when missing or not a valid id. */
  liveLessonId?: string;
  createdAt?: Date;
  /** Set when the namespace is Terminating. */
  deletingSince?: Date;
  /** spec.finalizers and the messages of its Terminating conditions. */
  finalizers: string[];
  conditions: string[];
}

export interface BlockingResource {
  kind: string;
  name: string;
  finalizers: string[];
}

export interface StuckNamespaceOutcome {
  /** True when nothing was left and the namespace's own finalizers were removed. */
  namespaceFinalized: boolean;
  /** Objects still in the namespace (left to the namespace controller; never orphaned). */
  remaining: number;
}

/** The reaper's view of Kubernetes (the real one: KubeReaperCluster; tests: a fake). */
export interface ReaperCluster {
  /** This instance's managed namespaces, in pages (one paged list, never one call per namespace). */
  listManagedNamespaces(pageSize: number): Promise<NamespaceRecord[]>;
  /** Starts deleting a namespace (no wait). */
  deleteNamespace(name: string): Promise<void>;
  /** Objects in a namespace still holding finalizers. */
  blockingResources(namespace: string): Promise<BlockingResource[]>;
  /** Removes the finalizers of those objects, and those of the namespace itself only once it holds nothing more. */
  removeFinalizers(namespace: string, resources: readonly BlockingResource[]): Promise<StuckNamespaceOutcome>;
  /** API calls made so far (for the pass summary). */
  callCount(): number;
}

export const REAPER_CLUSTER = Symbol.for('antidote.reaper.cluster');
