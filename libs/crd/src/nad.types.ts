import type { V1ObjectMeta } from '@kubernetes/client-node';

/** API group of Multus' NetworkAttachmentDefinition. */
export const NAD_GROUP = 'k8s.cni.cncf.io';
export const NAD_VERSION = 'v1';
export const NAD_API_VERSION = `${NAD_GROUP}/${NAD_VERSION}`;
export const NAD_KIND = 'NetworkAttachmentDefinition';
export const NAD_PLURAL = 'network-attachment-definitions';
export const NAD_SINGULAR = 'network-attachment-definition';
/** `<plural>.<group>`: the CRD's own object name. */
export const NAD_CRD_NAME = `${NAD_PLURAL}.${NAD_GROUP}`;
/** Pod annotation Multus reads to attach extra networks. */
export const MULTUS_NETWORKS_ANNOTATION = 'k8s.v1.cni.cncf.io/networks';

export interface NetworkAttachmentDefinitionSpec {
  /** A CNI configuration, as a JSON document in a string (Multus' format). */
  config: string;
}

/** One extra network a pod can join (Multus). Namespaced. */
export interface NetworkAttachmentDefinition {
  apiVersion: typeof NAD_API_VERSION;
  kind: typeof NAD_KIND;
  metadata: V1ObjectMeta;
  spec: NetworkAttachmentDefinitionSpec;
}

export interface NetworkAttachmentDefinitionList {
  apiVersion: typeof NAD_API_VERSION;
  kind: 'NetworkAttachmentDefinitionList';
  metadata: { resourceVersion?: string; continue?: string };
  items: NetworkAttachmentDefinition[];
}

/** One entry of the `k8s.v1.cni.cncf.io/networks` pod annotation. */
export interface NetworkSelectionElement {
  name: string;
  namespace?: string;
  /** Interface name inside the pod (`net1`, …, or the image's own names). */
  interface?: string;
}

/** The CNI `bridge` plugin configuration Antidote writes into each NAD. */
export interface BridgeCniConfig {
  cniVersion: string;
  name: string;
  type: 'bridge';
  plugin: 'bridge';
  bridge: string;
  forceAddress: boolean;
  hairpinMode: boolean;
  delegate: { hairpinMode: boolean };
  ipam: { type: 'host-local'; subnet: string };
}
