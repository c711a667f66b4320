import type { LiveLessonStatus } from '@antidote/contracts';
import type { GuideType } from '@antidote/curriculum';
import type { LiveLessonEntity, StoredEndpoint } from './entities/index.js';
import type { LiveEndpoint, LiveLesson } from './live.types.js';

/** The endpoints as the row keeps them, with their addresses and up times (the row's own columns). */
function toLiveEndpoints(stored: readonly StoredEndpoint[], hosts: Readonly<Record<string, string>>, upAt: Readonly<Record<string, number>>): LiveEndpoint[] {
  return [...stored]
    .sort((a, b) => a.position - b.position)
    .map((endpoint) => {
      const host = hosts[endpoint.name];
      const up = upAt[endpoint.name];
      return { ...endpoint, ...(host ? { host } : {}), ...(up !== undefined ? { upAt: new Date(up) } : {}) };
    });
}

export function toLiveLesson(entity: LiveLessonEntity): LiveLesson {
  const { failureReason, configuredStage, deleteRequestedAt, claimedBy, claimedUntil, estimatedReadyAt, endpoints, endpointHosts, endpointUpAt, ...rest } =
    entity;
  return {
    ...rest,
    guideType: entity.guideType as GuideType,
    status: entity.status as LiveLessonStatus,
    ...(failureReason !== null ? { failureReason } : {}),
    ...(configuredStage !== null ? { configuredStage } : {}),
    ...(deleteRequestedAt !== null ? { deleteRequestedAt } : {}),
    ...(claimedBy !== null ? { claimedBy } : {}),
    ...(claimedUntil !== null ? { claimedUntil } : {}),
    ...(estimatedReadyAt ? { estimatedReadyAt } : {}),
    endpoints: toLiveEndpoints(endpoints, endpointHosts, endpointUpAt),
  };
}

/** An endpoint as the row keeps it (its address and up time aside; nothing else a caller's object carries). */
export function storedEndpoint(endpoint: LiveEndpoint): StoredEndpoint {
  return {
    name: endpoint.name,
    position: endpoint.position,
    image: endpoint.image,
    ports: endpoint.ports,
    presentations: endpoint.presentations,
    configurationType: endpoint.configurationType,
    configurationFile: endpoint.configurationFile,
    sshUser: endpoint.sshUser,
    sshPassword: endpoint.sshPassword,
    ...(endpoint.readiness ? { readiness: endpoint.readiness } : {}),
  };
}

/** The live lesson with its endpoints' addresses and up times (endpoint name → value) as a write recorded them; an endpoint absent from both is as it was. */
export const withEndpointState = (
  lesson: LiveLesson,
  { hosts, upAt }: { hosts?: ReadonlyMap<string, string> | undefined; upAt?: ReadonlyMap<string, Date> | undefined },
): LiveLesson => ({
  ...lesson,
  endpoints: lesson.endpoints.map((endpoint) => {
    const host = hosts?.get(endpoint.name);
    const up = upAt?.get(endpoint.name);
    return host === undefined && up === undefined
      ? endpoint
      : { ...endpoint, ...(host === undefined ? {} : { host }), ...(up === undefined ? {} : { upAt: up }) };
  }),
});
