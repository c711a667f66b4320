import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { NAD_CRD_NAME, NAD_GROUP, NAD_KIND, NAD_PLURAL, NAD_SINGULAR, NAD_VERSION } from './nad.types.js';

/**
 * The NetworkAttachmentDefinition CRD on `apiextensions.k8s.io/v1` (the original registered it on
 * v1beta1, removed in Kubernetes 1.22). Same shape as the manifest Multus ships, so a cluster where
 * Multus installed it already sees no difference.
 */
export function nadCrdManifest(): V1CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: NAD_CRD_NAME },
    spec: {
      group: NAD_GROUP,
      scope: 'Namespaced',
      names: {
        plural: NAD_PLURAL,
        singular: NAD_SINGULAR,
        kind: NAD_KIND,
        listKind: `${NAD_KIND}List`,
        shortNames: ['net-attach-def'],
      },
      versions: [
        {
          name: NAD_VERSION,
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              description:
                'NetworkAttachmentDefinition is a CRD schema specified by the Network Plumbing Working Group to express the intent for attaching pods to one or more logical or physical networks.',
              type: 'object',
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                spec: {
                  description: 'NetworkAttachmentDefinition spec defines the desired state of a network attachment',
                  type: 'object',
                  properties: {
                    config: { description: 'NetworkAttachmentDefinition config is a JSON-formatted CNI configuration', type: 'string' },
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
}
