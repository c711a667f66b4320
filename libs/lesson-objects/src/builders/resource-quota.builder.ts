import type { AntidoteConfig } from '@antidote/config';
import type { V1ResourceQuota } from '@kubernetes/client-node';
import type { LessonObjectsInput } from './lesson-input.js';
import { managedLabels, namespaceOf } from './lesson-context.js';

export const RESOURCE_QUOTA = 'antidote-quota';

/** The lesson namespace's ResourceQuota from `config.quota`; `undefined` when `quota.enabled` is false. */
export function buildResourceQuota(input: LessonObjectsInput, config: Pick<AntidoteConfig, 'quota'>): V1ResourceQuota | undefined {
  const quota = config.quota;
  if (!quota.enabled) return undefined;
  return {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name: RESOURCE_QUOTA, namespace: namespaceOf(input), labels: managedLabels() },
    spec: {
      hard: {
        pods: String(quota.pods),
        'requests.cpu': quota.requestsCpu,
        'requests.memory': quota.requestsMemory,
        'limits.cpu': quota.limitsCpu,
        'limits.memory': quota.limitsMemory,
      },
    },
  };
}
