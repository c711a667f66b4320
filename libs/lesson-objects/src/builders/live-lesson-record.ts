import { endpointPorts, type Image, type Lesson } from '@antidote/curriculum';
import type { LiveEndpoint, NewLiveLesson } from '@antidote/data';
import { guideDomain, hepDomain, namespaceName } from '../naming/names.js';

export interface LiveLessonRecordInput {
  id: string;
  sessionId: string;
  instanceId: string;
  hepsDomain: string;
  stage: number;
  /**
   * A random token for the public hostnames of http presentations and the jupyter guide, in place of
   * the live lesson id (which unlocks the device logins): `<instanceId>-<hostToken>-…`. Without it,
   * the namespace name (the original's format).
   */
  hostToken?: string;
  /** The images of the lesson's endpoints, by slug (their SSH credentials and readiness checks go to the endpoints). */
  imageOf: (slug: string) => Image | undefined;
}

/**
 * The database row of a new live lesson for `lesson` at `stage`: its endpoints in lesson order with
 * their ports, presentations (and the domains of their ingresses) and credentials. Throws when an
 * endpoint's image is unknown.
 */
export function liveLessonRecord(lesson: Lesson, input: LiveLessonRecordInput): NewLiveLesson {
  const namespace = namespaceName(input.instanceId, input.id);
  const hostPrefix = input.hostToken ? `${input.instanceId}-${input.hostToken}` : namespace;
  const guide = lesson.stages[input.stage];
  if (!guide) throw new RangeError(`lesson ${lesson.slug} has no stage ${input.stage}`);
  const endpoints = lesson.endpoints.map((endpoint, position): LiveEndpoint => {
    const image = input.imageOf(endpoint.image);
    if (!image) throw new Error(`image ${endpoint.image} of endpoint ${endpoint.name} is not in the curriculum`);
    return {
      name: endpoint.name,
      position,
      image: endpoint.image,
      ports: endpointPorts(endpoint),
      presentations: endpoint.presentations.map((p) => ({ ...p, hepDomain: hepDomain(hostPrefix, endpoint.name, p.name, input.hepsDomain) })),
      configurationType: endpoint.configurationType,
      configurationFile: endpoint.configurationFile,
      sshUser: image.sshUser,
      sshPassword: image.sshPassword,
      ...(image.readiness ? { readiness: image.readiness } : {}),
    };
  });
  return {
    id: input.id,
    sessionId: input.sessionId,
    antidoteId: input.instanceId,
    lessonSlug: lesson.slug,
    currentStage: input.stage,
    guideType: guide.guideType,
    guideContents: guide.guideType === 'markdown' ? guide.guideContents : '',
    guideDomain: guideDomain(hostPrefix, input.hepsDomain),
    endpoints,
  };
}
