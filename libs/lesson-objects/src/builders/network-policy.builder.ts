import type { AntidoteConfig } from '@antidote/config';
import type { NetworkPolicy, NetworkPolicyIngressRule } from '@antidote/crd';
import type { V1NetworkPolicyEgressRule } from '@kubernetes/client-node';
import { NAMESPACE_NAME_LABEL } from '../naming/labels.js';
import type { LessonObjectsInput } from './lesson-input.js';
import { managedLabels, namespaceOf } from './lesson-context.js';

/** Ingress isolation plus the egress lock-down of reference §5.5, in one policy (kept by name: operators know it). */
export const STONEAGE_POLICY = 'stoneage';
/** With `allowEgress`: ingress isolation, and egress anywhere except `network.blockedCidrs`, in one policy. */
export const ISOLATION_POLICY = 'antidote-isolation';

type NetworkConfig = Pick<AntidoteConfig, 'allowEgress' | 'network'>;

const policy = (namespace: string, name: string, spec: NetworkPolicy['spec']): NetworkPolicy => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: { name, namespace, labels: managedLabels() },
  spec,
});

/** Pods of this namespace, and of `network.ingressFromNamespaces` (ingress controller, health checker), may connect in. */
function ingressRules(config: NetworkConfig): NetworkPolicyIngressRule[] {
  return [
    {
      from: [
        { podSelector: {} },
        ...(config.network.ingressFromNamespaces.length > 0
          ? [{ namespaceSelector: { matchExpressions: [{ key: NAMESPACE_NAME_LABEL, operator: 'In', values: [...config.network.ingressFromNamespaces] }] } }]
          : []),
      ],
    },
  ];
}

const dnsRule = (config: NetworkConfig): V1NetworkPolicyEgressRule => ({
  to: [
    {
      namespaceSelector: { matchLabels: { [NAMESPACE_NAME_LABEL]: config.network.dnsNamespace } },
      podSelector: { matchLabels: { ...config.network.dnsPodLabels } },
    },
  ],
  ports: [
    { protocol: 'UDP', port: 53 },
    { protocol: 'TCP', port: 53 },
  ],
});

/**
 * Egress with `allowEgress`: any pod and any address except `network.blockedCidrs` (IPv4 and IPv6
 * metadata and link-local by default); undefined when nothing is blocked (egress left open).
 */
function openEgressRules(config: NetworkConfig): V1NetworkPolicyEgressRule[] | undefined {
  if (config.network.blockedCidrs.length === 0) return undefined;
  const v4 = config.network.blockedCidrs.filter((cidr) => !cidr.includes(':'));
  const v6 = config.network.blockedCidrs.filter((cidr) => cidr.includes(':'));
  return [
    { to: [{ namespaceSelector: {} }] },
    {
      to: [
        { ipBlock: { cidr: '0.0.0.0/0', ...(v4.length > 0 ? { except: v4 } : {}) } },
        { ipBlock: { cidr: '::/0', ...(v6.length > 0 ? { except: v6 } : {}) } },
      ],
    },
  ];
}

/**
 * The one NetworkPolicy of a lesson namespace; it selects every pod there (endpoint and configuration
 * pods alike). Ingress: from this namespace and `network.ingressFromNamespaces` only. Egress (§5.5
 * `stoneage`): to this namespace's pods and the cluster DNS pods only — DNS only to the cluster DNS
 * pods (the original allowed port 53 to any pod anywhere), the own namespace by pod selector (the
 * original matched a `name` label any namespace could carry). With `allowEgress`: anywhere except
 * `network.blockedCidrs`. One policy says what the former three (ingress, stoneage, egress guard) said,
 * for the same pods or more: one create per lesson instead of three.
 */
export function buildNetworkPolicies(input: LessonObjectsInput, config: NetworkConfig): NetworkPolicy[] {
  const namespace = namespaceOf(input);
  const ingress = ingressRules(config);
  if (!config.allowEgress) {
    return [
      policy(namespace, STONEAGE_POLICY, {
        podSelector: {},
        policyTypes: ['Ingress', 'Egress'],
        ingress,
        egress: [{ to: [{ podSelector: {} }] }, dnsRule(config)],
      }),
    ];
  }
  const egress = openEgressRules(config);
  return [
    policy(namespace, ISOLATION_POLICY, { podSelector: {}, policyTypes: egress ? ['Ingress', 'Egress'] : ['Ingress'], ingress, ...(egress ? { egress } : {}) }),
  ];
}
