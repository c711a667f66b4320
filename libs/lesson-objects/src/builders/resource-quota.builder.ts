import type { AntidoteConfig } from '@antidote/config';
import type { V1ResourceQuota } from '@kubernetes/client-node';
import type { LessonObjectsInput } from './lesson-input.js';
import { managedLabels, namespaceOf } from './lesson-context.js';
import { lessonFootprint, quantity } from './lesson-footprint.js';

export const RESOURCE_QUOTA = 'antidote-quota';

/** The larger of the configured quantity and what the lesson needs (millicores/bytes), as a quantity. */
const atLeast = (configured: string, needed: number, unit: 'm' | ''): string =>
  quantity(configured) * (unit === 'm' ? 1000 : 1) >= needed ? configured : `${needed}${unit}`;

/**
 * The lesson namespace's ResourceQuota: `config.quota`, raised where the lesson needs more (its endpoint
 * pods plus its configuration job pods, `lessonFootprint`), so every lesson fits its own quota while
 * the namespace can never hold more than that. `undefined` when `quota.enabled` is false.
 */
export function buildResourceQuota(input: LessonObjectsInput, config: Pick<AntidoteConfig, 'quota' | 'pods'>): V1ResourceQuota | undefined {
  const quota = config.quota;
  if (!quota.enabled) return undefined;
  const needed = lessonFootprint(input, config);
  return {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name: RESOURCE_QUOTA, namespace: namespaceOf(input), labels: managedLabels() },
    spec: {
      hard: {
        pods: String(Math.max(quota.pods, needed.pods)),
        'requests.cpu': atLeast(quota.requestsCpu, needed.requestsCpu, 'm'),
        'requests.memory': atLeast(quota.requestsMemory, needed.requestsMemory, ''),
        'limits.cpu': atLeast(quota.limitsCpu, needed.limitsCpu, 'm'),
        'limits.memory': atLeast(quota.limitsMemory, needed.limitsMemory, ''),
      },
    },
  };
}
