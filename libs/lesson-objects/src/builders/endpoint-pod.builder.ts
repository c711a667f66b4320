import { isTrustedImage, trustedImagesOf, type AntidoteConfig } from '@antidote/config';
import type { Image } from '@antidote/curriculum';
import { MULTUS_NETWORKS_ANNOTATION, type NetworkSelectionElement } from '@antidote/crd';
import type { V1Container, V1Pod, V1SecurityContext } from '@kubernetes/client-node';
import { labelValue } from '../naming/dns-name.js';
import { LABEL } from '../naming/labels.js';
import { connectionNadNames } from '../naming/names.js';
import type { EndpointInput, LessonObjectsInput } from './lesson-input.js';
import { LessonObjectError } from './lesson-object.error.js';
import { imageOf, lessonLabels, namespaceOf, podNameOf, pullPolicy, pullSecrets, resources } from './lesson-context.js';
import { copyLessonFilesContainer, lessonFilesMount, lessonVolumes } from './lesson-files.js';

export const HOSTNAME_TOPOLOGY_KEY = 'kubernetes.io/hostname';
const NET_ADMIN = { add: ['NET_ADMIN'] };

/**
 * The Multus networks of an endpoint: one entry per connection it is on, in connection order, each with
 * the image's i-th interface name or `net<i+1>` (Multus' own default numbering; HEAD's `net<i>` was off
 * by one).
 */
export function endpointNetworks(input: LessonObjectsInput, endpoint: EndpointInput, image?: Image): NetworkSelectionElement[] {
  if (endpoint.jupyterGuide) return [];
  const names = connectionNadNames(input.lesson.connections);
  const networks: NetworkSelectionElement[] = [];
  input.lesson.connections.forEach((connection, index) => {
    const ends = [connection.a, connection.b].filter((end) => end === endpoint.name).length;
    for (let i = 0; i < ends; i++) {
      const position = networks.length;
      networks.push({ name: names[index], interface: image?.networkInterfaces[position] ?? `net${position + 1}` });
    }
  });
  return networks;
}

/**
 * Flavor → container security context and runtime class (reference §5.5); unknown flavors are untrusted.
 * `trusted` (privileged) only for an image the operator lists in `pods.trustedImages`: validation refuses a
 * curriculum asking for another, and should one reach here anyway (a curriculum imported before, a
 * changed config) it runs as untrusted — unprivileged, with the sandbox runtime.
 */
function security(image: Image | undefined, config: AntidoteConfig): { context: V1SecurityContext; runtimeClassName?: string } {
  // A string: a flavor this version does not know is untrusted.
  const flavor: string = image?.flavor === 'trusted' && !isTrustedImage(trustedImagesOf(config), image.slug) ? 'untrusted' : (image?.flavor ?? 'untrusted');
  switch (flavor) {
    case 'trusted':
      return { context: { privileged: true, allowPrivilegeEscalation: true, capabilities: NET_ADMIN } };
    case 'legacy':
      return { context: { privileged: false, allowPrivilegeEscalation: false, capabilities: NET_ADMIN } };
    default: {
      const runtimeClassName = config.pods.untrustedRuntimeClass;
      return {
        context: { privileged: false, allowPrivilegeEscalation: false, capabilities: NET_ADMIN },
        ...(runtimeClassName ? { runtimeClassName } : {}),
      };
    }
  }
}

function mainContainer(name: string, endpoint: EndpointInput, image: string, securityContext: V1SecurityContext, config: AntidoteConfig): V1Container {
  return {
    name,
    image,
    imagePullPolicy: pullPolicy(config),
    ports: endpoint.ports.map((port) => ({ containerPort: port, protocol: 'TCP' })),
    volumeMounts: [lessonFilesMount()],
    resources: resources(config.pods.endpointResources),
    securityContext,
  };
}

/**
 * The endpoint Pod of reference §5.5: lesson files copied by the init container, Multus networks,
 * required same-node affinity with the lesson's other pods (the bridges are node-local), flavor-based
 * security, forwarding sysctls — plus resource requests/limits (§9 item 25) and no service account token.
 */
export function buildEndpointPod(input: LessonObjectsInput, endpoint: EndpointInput, config: AntidoteConfig): V1Pod {
  if (endpoint.ports.length === 0) {
    throw new LessonObjectError('ENDPOINT_WITHOUT_PORTS', `Endpoint ${endpoint.name} must have at least one port exposed`);
  }
  const image = endpoint.jupyterGuide ? undefined : imageOf(input, endpoint);
  const name = podNameOf(endpoint);
  const reference = image ? `${config.imageOrg}/${endpoint.image}:${config.curriculumVersion}` : config.images.jupyter;
  const { context, runtimeClassName } = security(image, config);
  const sameLesson = lessonLabels(input);
  const sysctls = image?.enableForwarding
    ? [
        { name: 'net.ipv4.ip_forward', value: '1' },
        { name: 'net.ipv6.conf.all.forwarding', value: '1' },
      ]
    : undefined;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: namespaceOf(input),
      labels: { ...sameLesson, [LABEL.antidoteId]: input.instanceId, [LABEL.podName]: labelValue(name) },
      annotations: { [MULTUS_NETWORKS_ANNOTATION]: JSON.stringify(endpointNetworks(input, endpoint, image)) },
    },
    spec: {
      affinity: {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: sameLesson }, topologyKey: HOSTNAME_TOPOLOGY_KEY }],
        },
      },
      initContainers: [copyLessonFilesContainer(input.lesson.lessonDir, config)],
      containers: [mainContainer(name, endpoint, reference, context, config)],
      volumes: lessonVolumes(config),
      automountServiceAccountToken: false,
      ...(runtimeClassName ? { runtimeClassName } : {}),
      ...(sysctls ? { securityContext: { sysctls } } : {}),
      ...(pullSecrets(config) ? { imagePullSecrets: pullSecrets(config) } : {}),
    },
  };
}
