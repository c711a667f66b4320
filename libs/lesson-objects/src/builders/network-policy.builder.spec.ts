import type { NetworkPolicy } from '@antidote/crd';
import { describe, expect, it } from 'vitest';
import { kubeSchemaProblems } from '../../test/kube-schema.js';
import { testConfig, triangleLesson } from '../../test/lesson-fixture.js';
import { buildNetworkPolicies } from './network-policy.builder.js';

const only = (policies: NetworkPolicy[]): NetworkPolicy => {
  expect(policies).toHaveLength(1);
  return policies[0];
};

const DNS_RULE = {
  to: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } }, podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } } }],
  ports: [
    { protocol: 'UDP', port: 53 },
    { protocol: 'TCP', port: 53 },
  ],
};

describe('buildNetworkPolicies', () => {
  const stoneage = only(buildNetworkPolicies(triangleLesson(), testConfig()));

  it('is one policy, stoneage, over every pod of the namespace (endpoint and configuration pods alike)', () => {
    expect(stoneage.metadata?.name).toBe('stoneage');
    expect(stoneage.spec?.podSelector).toEqual({});
    expect(stoneage.spec?.policyTypes).toEqual(['Ingress', 'Egress']);
  });

  it('denies ingress from other namespaces except the configured ones', () => {
    expect(stoneage.spec?.ingress).toEqual([
      {
        from: [
          { podSelector: {} },
          { namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['ingress-nginx', 'antidote'] }] } },
        ],
      },
    ]);
  });

  it('keeps stoneage (§5.5): every pod, configuration pods included, reaches its own namespace and the cluster DNS only', () => {
    expect(stoneage.spec?.egress).toEqual([{ to: [{ podSelector: {} }] }, DNS_RULE]);
    // No other namespace, no address block.
    expect(JSON.stringify(stoneage.spec)).not.toMatch(/namespaceSelector":\{\}|ipBlock/);
  });

  it('blocks the IPv4 and IPv6 metadata services (AWS, GCP, Azure, Alibaba, Tencent, Oracle…) and IPv6 link-local by default when egress is allowed', () => {
    const open = only(buildNetworkPolicies(triangleLesson(), testConfig({ allowEgress: true })));
    expect(open.spec?.egress?.[1].to).toEqual([
      {
        ipBlock: {
          cidr: '0.0.0.0/0',
          except: ['169.254.169.254/32', '169.254.170.2/32', '169.254.0.23/32', '100.100.100.200/32', '168.63.129.16/32', '192.0.0.192/32'],
        },
      },
      { ipBlock: { cidr: '::/0', except: ['fd00:ec2::254/128', 'fd20:ce::254/128', 'fe80::/10'] } },
    ]);
  });

  it('with allowEgress: no stoneage; one policy keeps ingress isolated and covers every pod’s egress (metadata still blocked)', () => {
    const open = only(
      buildNetworkPolicies(triangleLesson(), testConfig({ allowEgress: true, network: { blockedCidrs: ['169.254.169.254/32', 'fd00:ec2::254/128'] } })),
    );
    expect(open.metadata?.name).toBe('antidote-isolation');
    expect(open.spec?.podSelector).toEqual({});
    expect(open.spec?.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(open.spec?.ingress).toEqual(stoneage.spec?.ingress);
    expect(open.spec?.egress?.[1].to).toEqual([
      { ipBlock: { cidr: '0.0.0.0/0', except: ['169.254.169.254/32'] } },
      { ipBlock: { cidr: '::/0', except: ['fd00:ec2::254/128'] } },
    ]);
  });

  it('with allowEgress and nothing blocked: ingress isolation only', () => {
    const open = only(buildNetworkPolicies(triangleLesson(), testConfig({ allowEgress: true, network: { blockedCidrs: [] } })));
    expect(open.spec?.policyTypes).toEqual(['Ingress']);
    expect(open.spec?.egress).toBeUndefined();
  });

  it('allows only same-namespace ingress when no namespace is configured', () => {
    const closed = only(buildNetworkPolicies(triangleLesson(), testConfig({ network: { ingressFromNamespaces: [] } })));
    expect(closed.spec?.ingress).toEqual([{ from: [{ podSelector: {} }] }]);
  });

  it('produces schema-valid policies', () => {
    expect(kubeSchemaProblems(stoneage)).toEqual([]);
    expect(kubeSchemaProblems(only(buildNetworkPolicies(triangleLesson(), testConfig({ allowEgress: true }))))).toEqual([]);
  });
});
