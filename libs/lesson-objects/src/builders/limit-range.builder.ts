import type { AntidoteConfig } from '@antidote/config';
import type { LimitRange } from '@antidote/crd';
import type { LessonObjectsInput } from './lesson-input.js';
import { managedLabels, namespaceOf } from './lesson-context.js';

export const LIMIT_RANGE = 'antidote-limits';

/**
 * Container defaults from `config.limitRange` (so that anything without resources still fits the
 * quota); `undefined` when `limitRange.enabled` is false.
 */
export function buildLimitRange(input: LessonObjectsInput, config: Pick<AntidoteConfig, 'limitRange'>): LimitRange | undefined {
  const limits = config.limitRange;
  if (!limits.enabled) return undefined;
  return {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: { name: LIMIT_RANGE, namespace: namespaceOf(input), labels: managedLabels() },
    spec: {
      limits: [
        {
          type: 'Container',
          default: { cpu: limits.defaultCpu, memory: limits.defaultMemory },
          defaultRequest: { cpu: limits.defaultRequestCpu, memory: limits.defaultRequestMemory },
        },
      ],
    },
  };
}
