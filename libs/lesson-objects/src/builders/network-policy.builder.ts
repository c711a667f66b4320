import type { AntidoteConfig } from '@antidote/config';
import type { V1NetworkPolicy, V1NetworkPolicyEgressRule } from '@kubernetes/client-node';
import { LABEL, MANAGED, NAMESPACE_NAME_LABEL } from '../naming/labels.js';
import type { LessonObjectsInput } from './lesson-input.js';
import { managedLabels, namespaceOf } from './lesson-context.js';

/** Egress lock-down of reference §5.5 (kept by name: operators know it). */
export const STONEAGE_POLICY = 'stoneage';
/** Ingress from other namespaces denied except the configured ones (new). */
export const INGRESS_POLICY = 'antidote-ingress';
/** Egress of the pods `stoneage` does not cover (new): configuration pods, or every pod with `allowEgress`. */
export const EGRESS_GUARD_POLICY = 'antidote-egress-guard';

type NetworkConfig = Pick<AntidoteConfig, 'allowEgress' | 'network'>;

const policy = (namespace: string, name: string, spec: V1NetworkPolicy['spec']): V1NetworkPolicy => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: { name, namespace, labels: managedLabels() },
  spec,
});

/** Pods of this namespace, and of `network.ingressFromNamespaces` (ingress controller, health checker), may connect in. */
function ingressPolicy(namespace: string, config: NetworkConfig): V1NetworkPolicy {
  const from: NonNullable<V1NetworkPolicy['spec']>['ingress'] = [
    {
      _from: [
        { podSelector: {} },
        ...(config.network.ingressFromNamespaces.length > 0
          ? [{ namespaceSelector: { matchExpressions: [{ key: NAMESPACE_NAME_LABEL, operator: 'In', values: [...config.network.ingressFromNamespaces] }] } }]
          : []),
      ],
    },
  ];
  return policy(namespace, INGRESS_POLICY, { podSelector: {}, policyTypes: ['Ingress'], ingress: from });
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
 * `stoneage` as §5.5 — endpoint pods (not configuration pods) may reach their own namespace and DNS —
 * but DNS only to the cluster DNS pods (the original allowed port 53 to any pod anywhere) and the own
 * namespace by pod selector (the original matched a `name` label any namespace could carry).
 */
function stoneagePolicy(namespace: string, config: NetworkConfig): V1NetworkPolicy {
  return policy(namespace, STONEAGE_POLICY, {
    podSelector: {
      matchExpressions: [
        { key: LABEL.managed, operator: 'In', values: [MANAGED] },
        { key: LABEL.configPod, operator: 'NotIn', values: [MANAGED] },
      ],
    },
    policyTypes: ['Egress'],
    egress: [{ to: [{ podSelector: {} }] }, dnsRule(config)],
  });
}

/**
 * NetworkPolicies add up (a connection is allowed when any policy allows it), so the guard selects only
 * pods that `stoneage` leaves open. Configuration pods configure the lesson's own devices: they may
 * reach their own namespace and the cluster DNS, nothing else (no other namespace, no metadata). With
 * `allowEgress` every pod may reach any pod and any address except `network.blockedCidrs` (IPv4 and
 * IPv6 metadata and link-local by default).
 */
function egressGuardPolicy(namespace: string, config: NetworkConfig): V1NetworkPolicy {
  if (!config.allowEgress) {
    return policy(namespace, EGRESS_GUARD_POLICY, {
      podSelector: { matchLabels: { [LABEL.configPod]: MANAGED } },
      policyTypes: ['Egress'],
      egress: [{ to: [{ podSelector: {} }] }, dnsRule(config)],
    });
  }
  const v4 = config.network.blockedCidrs.filter((cidr) => !cidr.includes(':'));
  const v6 = config.network.blockedCidrs.filter((cidr) => cidr.includes(':'));
  return policy(namespace, EGRESS_GUARD_POLICY, {
    podSelector: {},
    policyTypes: ['Egress'],
    egress: [
      { to: [{ namespaceSelector: {} }] },
      {
        to: [
          { ipBlock: { cidr: '0.0.0.0/0', ...(v4.length > 0 ? { except: v4 } : {}) } },
          { ipBlock: { cidr: '::/0', ...(v6.length > 0 ? { except: v6 } : {}) } },
        ],
      },
    ],
  });
}

/** The NetworkPolicies of a lesson namespace, in creation order. */
export function buildNetworkPolicies(input: LessonObjectsInput, config: NetworkConfig): V1NetworkPolicy[] {
  const namespace = namespaceOf(input);
  return [
    ingressPolicy(namespace, config),
    ...(config.allowEgress ? [] : [stoneagePolicy(namespace, config)]),
    ...(!config.allowEgress || config.network.blockedCidrs.length > 0 ? [egressGuardPolicy(namespace, config)] : []),
  ];
}
