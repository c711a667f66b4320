import { NAD_API_VERSION, NAD_KIND, type BridgeCniConfig, type NetworkAttachmentDefinition } from '@antidote/crd';
import { bridgeName, cniNetworkName, connectionNadNames } from '../naming/names.js';
import type { LessonObjectsInput } from './lesson-input.js';
import { managedLabels, namespaceOf } from './lesson-context.js';

/** Subnet of a connection without one (reference §5.5). */
export const DEFAULT_CONNECTION_SUBNET = '169.0.0.0/16';

/** One NetworkAttachmentDefinition per connection: a node-local Linux bridge with host-local IPAM. */
export function buildNetworkAttachments(input: LessonObjectsInput): NetworkAttachmentDefinition[] {
  const namespace = namespaceOf(input);
  const names = connectionNadNames(input.lesson.connections);
  return input.lesson.connections.map((connection, index) => {
    const config: BridgeCniConfig = {
      cniVersion: '0.3.1',
      name: cniNetworkName(namespace, names[index]),
      type: 'bridge',
      plugin: 'bridge',
      bridge: bridgeName(namespace, index),
      forceAddress: false,
      hairpinMode: false,
      delegate: { hairpinMode: false },
      ipam: { type: 'host-local', subnet: connection.subnet || DEFAULT_CONNECTION_SUBNET },
    };
    return {
      apiVersion: NAD_API_VERSION,
      kind: NAD_KIND,
      metadata: { name: names[index], namespace, labels: managedLabels() },
      spec: { config: JSON.stringify(config) },
    };
  });
}
