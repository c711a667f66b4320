import type { AntidoteConfig } from '@antidote/config';
import type { LimitRange, NetworkAttachmentDefinition, NetworkPolicy } from '@antidote/crd';
import type { V1Ingress, V1Job, V1Namespace, V1Pod, V1ResourceQuota, V1Secret, V1Service } from '@kubernetes/client-node';
import { buildConfigJobs } from './config-job.builder.js';
import { buildEndpointPod } from './endpoint-pod.builder.js';
import { buildEndpointIngresses } from './ingress.builder.js';
import type { EndpointInput, LessonObjectsInput } from './lesson-input.js';
import { buildLimitRange } from './limit-range.builder.js';
import { buildNamespace } from './namespace.builder.js';
import { buildNetworkAttachments } from './network-attachment.builder.js';
import { buildNetworkPolicies } from './network-policy.builder.js';
import { buildResourceQuota } from './resource-quota.builder.js';
import { buildConfigCredentialsSecret } from './secret.builder.js';
import { buildService } from './service.builder.js';

export interface EndpointObjects {
  endpoint: EndpointInput;
  pod: V1Pod;
  service: V1Service;
  ingresses: V1Ingress[];
}

/** Every object of one live lesson, in the order they are created. */
export interface LessonObjectSet {
  namespace: V1Namespace;
  networkPolicies: NetworkPolicy[];
  resourceQuota?: V1ResourceQuota;
  limitRange?: LimitRange;
  /** Secrets copied from `kubernetes.secretsNamespace`: the TLS secret, then the pull secret when set. */
  secretsToCopy: string[];
  networkAttachments: NetworkAttachmentDefinition[];
  /** Lesson order, the jupyter guide last. */
  endpoints: EndpointObjects[];
}

/**
 * Builds the whole object set before anything is sent, so a lesson that cannot be built (no ports,
 * unknown image, bad lesson directory) fails without leaving half a namespace behind.
 */
export function buildLessonObjects(input: LessonObjectsInput, config: AntidoteConfig): LessonObjectSet {
  const resourceQuota = buildResourceQuota(input, config);
  const limitRange = buildLimitRange(input, config);
  return {
    namespace: buildNamespace(input),
    networkPolicies: buildNetworkPolicies(input, config),
    ...(resourceQuota ? { resourceQuota } : {}),
    ...(limitRange ? { limitRange } : {}),
    secretsToCopy: [config.kubernetes.tlsCertName, ...(config.kubernetes.pullCredName ? [config.kubernetes.pullCredName] : [])],
    networkAttachments: buildNetworkAttachments(input),
    endpoints: input.endpoints.map((endpoint) => ({
      endpoint,
      pod: buildEndpointPod(input, endpoint, config),
      service: buildService(input, endpoint),
      ingresses: buildEndpointIngresses(input, endpoint, config),
    })),
  };
}

/** What one stage's configuration creates: the credentials Secret and one Job per configured endpoint. */
export interface ConfigObjectSet {
  credentials: V1Secret;
  jobs: V1Job[];
}

/** Needs every configured endpoint's `host` (its Service ClusterIP). */
export function buildConfigObjects(input: LessonObjectsInput, stage: number, config: AntidoteConfig): ConfigObjectSet {
  return { credentials: buildConfigCredentialsSecret(input), jobs: buildConfigJobs(input, stage, config) };
}
