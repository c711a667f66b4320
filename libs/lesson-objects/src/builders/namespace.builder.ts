import type { V1Namespace } from '@kubernetes/client-node';
import { labelValue } from '../naming/dns-name.js';
import { LABEL, MANAGED } from '../naming/labels.js';
import type { LessonObjectsInput } from './lesson-input.js';
import { namespaceOf, unixSeconds } from './lesson-context.js';

/**
 * The lesson namespace with the labels of reference §5.1 (labels, not annotations: the reaper and
 * old tooling select on them). `lastAccessed` starts at the creation time, as in the original.
 */
export function buildNamespace(input: LessonObjectsInput): V1Namespace {
  const name = namespaceOf(input);
  const created = unixSeconds(input.createdAt);
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      labels: {
        [LABEL.name]: name,
        [LABEL.liveLesson]: labelValue(input.liveLessonId),
        [LABEL.liveSession]: labelValue(input.sessionId),
        [LABEL.lessonSlug]: labelValue(input.lessonSlug),
        [LABEL.managed]: MANAGED,
        [LABEL.antidoteId]: labelValue(input.instanceId),
        [LABEL.lastAccessed]: created,
        [LABEL.created]: created,
      },
    },
  };
}

/**
 * The namespace labels that change when a warm-pool member is claimed: the learner's session (it was the
 * member's placeholder) and `lastAccessed`. One merge PATCH of the namespace sets them.
 */
export function sessionBindingLabels(sessionId: string, at: Date): Record<string, string> {
  return { [LABEL.liveSession]: labelValue(sessionId), [LABEL.lastAccessed]: unixSeconds(at) };
}
