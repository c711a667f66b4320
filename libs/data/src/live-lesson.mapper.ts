import type { LiveLessonStatus } from '@antidote/contracts';
import type { ConfigurationType, GuideType } from '@antidote/curriculum';
import { type LiveEndpointEntity, type LiveLessonEntity } from './entities/index.js';
import type { LiveEndpoint, LiveLesson } from './live.types.js';

export function toLiveEndpoint(entity: LiveEndpointEntity): LiveEndpoint {
  return {
    name: entity.name,
    position: entity.position,
    image: entity.image,
    ports: entity.ports,
    presentations: entity.presentations,
    configurationType: entity.configurationType as ConfigurationType,
    configurationFile: entity.configurationFile,
    sshUser: entity.sshUser,
    sshPassword: entity.sshPassword,
    ...(entity.host ? { host: entity.host } : {}),
    ...(entity.readiness ? { readiness: entity.readiness } : {}),
    ...(entity.upAt ? { upAt: entity.upAt } : {}),
  };
}

export function toLiveLesson(entity: LiveLessonEntity, endpoints: readonly LiveEndpointEntity[]): LiveLesson {
  const { failureReason, configuredStage, deleteRequestedAt, claimedBy, claimedUntil, estimatedReadyAt, endpoints: _loaded, ...rest } = entity;
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
    endpoints: [...endpoints].sort((a, b) => a.position - b.position).map(toLiveEndpoint),
  };
}

export function endpointEntity(liveLessonId: string, endpoint: LiveEndpoint): Omit<LiveEndpointEntity, 'liveLesson'> {
  return {
    liveLessonId,
    name: endpoint.name,
    position: endpoint.position,
    image: endpoint.image,
    ports: endpoint.ports,
    presentations: endpoint.presentations,
    configurationType: endpoint.configurationType,
    configurationFile: endpoint.configurationFile,
    sshUser: endpoint.sshUser,
    sshPassword: endpoint.sshPassword,
    host: endpoint.host ?? null,
    readiness: endpoint.readiness ?? null,
    upAt: endpoint.upAt ?? null,
  };
}

/** The live lesson with its endpoints' Service addresses (endpoint name → host) as `updateEndpointHosts` writes them. */
export const withEndpointHosts = (lesson: LiveLesson, hosts: ReadonlyMap<string, string>): LiveLesson => ({
  ...lesson,
  endpoints: lesson.endpoints.map((endpoint) => {
    const host = hosts.get(endpoint.name);
    return host === undefined ? endpoint : { ...endpoint, host };
  }),
});
