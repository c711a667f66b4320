import type { AntidoteConfig } from '@antidote/config';
import type { Image } from '@antidote/curriculum';
import type { V1ResourceRequirements } from '@kubernetes/client-node';
import { labelValue } from '../naming/dns-name.js';
import { LABEL, MANAGED } from '../naming/labels.js';
import { endpointResourceName, namespaceName } from '../naming/names.js';
import type { EndpointInput, LessonObjectsInput } from './lesson-input.js';
import { LessonObjectError } from './lesson-object.error.js';

export const namespaceOf = (input: Pick<LessonObjectsInput, 'instanceId' | 'liveLessonId'>): string => namespaceName(input.instanceId, input.liveLessonId);

/** `antidoteManaged=yes`: the mark `createOrAdopt` looks for. */
export const managedLabels = (): Record<string, string> => ({ [LABEL.managed]: MANAGED });

/** liveLesson + liveSession + antidoteManaged: what pods, services and the same-node affinity share. */
export const lessonLabels = (input: Pick<LessonObjectsInput, 'liveLessonId' | 'sessionId'>): Record<string, string> => ({
  [LABEL.liveLesson]: labelValue(input.liveLessonId),
  [LABEL.liveSession]: labelValue(input.sessionId),
  [LABEL.managed]: MANAGED,
});

export const unixSeconds = (date: Date): string => String(Math.floor(date.getTime() / 1000));

export const pullPolicy = (config: AntidoteConfig): 'Always' | 'IfNotPresent' => (config.alwaysPull ? 'Always' : 'IfNotPresent');

export const pullSecrets = (config: AntidoteConfig): { name: string }[] | undefined =>
  config.kubernetes.pullCredName ? [{ name: config.kubernetes.pullCredName }] : undefined;

export function resources(spec: { requestsCpu: string; requestsMemory: string; limitsCpu: string; limitsMemory: string }): V1ResourceRequirements {
  return {
    requests: { cpu: spec.requestsCpu, memory: spec.requestsMemory },
    limits: { cpu: spec.limitsCpu, memory: spec.limitsMemory },
  };
}

/** The image of a (non-jupyter) endpoint; a lesson naming an image the curriculum lacks cannot start. */
export function imageOf(input: LessonObjectsInput, endpoint: EndpointInput): Image {
  const image = input.images.get(endpoint.image);
  if (!image) throw new LessonObjectError('UNKNOWN_IMAGE', `Image ${endpoint.image} of endpoint ${endpoint.name} is not in the curriculum`);
  return image;
}

export const podNameOf = (endpoint: Pick<EndpointInput, 'name'>): string => endpointResourceName(endpoint.name);
