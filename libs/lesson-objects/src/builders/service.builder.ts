import type { V1Service } from '@kubernetes/client-node';
import { labelValue } from '../naming/dns-name.js';
import { LABEL } from '../naming/labels.js';
import type { EndpointInput, LessonObjectsInput } from './lesson-input.js';
import { lessonLabels, namespaceOf, podNameOf } from './lesson-context.js';

/** ClusterIP Service named like the pod, one TCP port `port-<n>` per container port (reference §5.5). */
export function buildService(input: LessonObjectsInput, endpoint: EndpointInput): V1Service {
  const name = podNameOf(endpoint);
  const labels = lessonLabels(input);
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: namespaceOf(input), labels },
    spec: {
      type: 'ClusterIP',
      selector: {
        [LABEL.liveLesson]: labels[LABEL.liveLesson],
        [LABEL.liveSession]: labels[LABEL.liveSession],
        [LABEL.podName]: labelValue(name),
      },
      ports: endpoint.ports.map((port) => ({ name: `port-${port}`, port, targetPort: port, protocol: 'TCP' })),
    },
  };
}
