/**
 * Label keys and values of reference §5.1, kept exactly (the web front-end, the reaper and old
 * deployments select on them). They are labels, not annotations.
 */
export const LABEL = {
  managed: 'antidoteManaged',
  antidoteId: 'antidoteId',
  liveLesson: 'liveLesson',
  liveSession: 'liveSession',
  lessonSlug: 'lessonSlug',
  podName: 'podName',
  lastAccessed: 'lastAccessed',
  created: 'created',
  name: 'name',
  jobType: 'jobType',
  stageId: 'stageId',
  configPod: 'configPod',
} as const;

export type LabelKey = (typeof LABEL)[keyof typeof LABEL];

/** Value of `antidoteManaged` (and `configPod`) on everything Antidote creates. */
export const MANAGED = 'yes';
/** What marks an object as Antidote's: a create that meets one adopts it (`KubeClientOptions.ownerLabel`). */
export const OWNER_LABEL = { key: LABEL.managed, value: MANAGED } as const;
/** Value of `jobType` on configuration jobs. */
export const JOB_TYPE_CONFIG = 'config';

/** Set by Kubernetes ≥ 1.21 on every namespace; unlike `name`, no other namespace can claim it. */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/** Selector of the namespaces this instance owns (reference §5.1 "Antidote-managed"). */
export const managedNamespaceSelector = (instanceId: string): string => `${LABEL.managed}=${MANAGED},${LABEL.antidoteId}=${instanceId}`;

/**
 * Selector of everything this instance creates that it waits on — namespaces, endpoint pods,
 * configuration jobs and their pods: what the scheduler's shared informers select.
 */
export const instanceObjectSelector = managedNamespaceSelector;

/** Selector of the endpoint pods of a lesson namespace (configuration pods excluded). */
export const endpointPodSelector = (): string => `${LABEL.managed}=${MANAGED},${LABEL.configPod}!=${MANAGED}`;

/** Selector of the configuration jobs of a lesson namespace. */
export const configJobSelector = (): string => `${LABEL.jobType}=${JOB_TYPE_CONFIG}`;
