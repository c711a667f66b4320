import type {
  V1Lease,
  V1LeaseSpec,
  V1LimitRange,
  V1LimitRangeItem,
  V1NetworkPolicy,
  V1NetworkPolicyIngressRule,
  V1NetworkPolicyPeer,
  V1NetworkPolicySpec,
} from '@kubernetes/client-node';

/*
 * client-node's model types rename a few JSON fields that are keywords in some language (`from` is
 * `_from`, `default` is `_default`) and type times as Date; its ObjectSerializer maps them on the
 * wire. Our client sends and receives JSON as the API server writes it, so the kinds we build with
 * such a field are typed by their wire form here. (Times we only read stay typed as Date by client-node
 * but arrive as strings: read them with `new Date(…)`.)
 */

export type NetworkPolicyIngressRule = Omit<V1NetworkPolicyIngressRule, '_from'> & { from?: V1NetworkPolicyPeer[] };
export type NetworkPolicySpec = Omit<V1NetworkPolicySpec, 'ingress'> & { ingress?: NetworkPolicyIngressRule[] };
export type NetworkPolicy = Omit<V1NetworkPolicy, 'spec'> & { spec?: NetworkPolicySpec };

export type LimitRangeItem = Omit<V1LimitRangeItem, '_default'> & { default?: Record<string, string> };
export type LimitRange = Omit<V1LimitRange, 'spec'> & { spec?: { limits: LimitRangeItem[] } };

/** MicroTime on the wire: RFC 3339 with exactly 6 fractional digits (a real API server refuses 3). */
export type MicroTime = string;
export type LeaseSpec = Omit<V1LeaseSpec, 'acquireTime' | 'renewTime'> & { acquireTime?: MicroTime; renewTime?: MicroTime };
export type Lease = Omit<V1Lease, 'spec'> & { spec?: LeaseSpec };
