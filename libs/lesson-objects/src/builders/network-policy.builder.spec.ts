import type { V1NetworkPolicy } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { kubeSchemaProblems } from '../../test/kube-schema.js';
import { testConfig, triangleLesson } from '../../test/lesson-fixture.js';
import { buildNetworkPolicies } from './network-policy.builder.js';

const byName = (policies: V1NetworkPolicy[]) => new Map(policies.map((policy) => [policy.metadata!.name!, policy]));

describe('buildNetworkPolicies', () => {
  const policies = byName(buildNetworkPolicies(triangleLesson(), testConfig()));

  it('denies ingress from other namespaces except the configured ones', () => {
    const ingress = policies.get('antidote-ingress')!;
    expect(ingress.spec?.podSelector).toEqual({});
    expect(ingress.spec?.policyTypes).toEqual(['Ingress']);
    expect(ingress.spec?.ingress).toEqual([
      {
        _from: [
          { podSelector: {} },
          { namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['ingress-nginx', 'antidote'] }] } },
        ],
      },
    ]);
  });

  it('keeps stoneage (§5.5): endpoint pods, not configuration pods, reach their namespace and the cluster DNS only', () => {
    const stoneage = policies.get('stoneage')!;
    expect(stoneage.spec?.podSelector?.matchExpressions).toEqual([
      { key: 'antidoteManaged', operator: 'In', values: ['yes'] },
      { key: 'configPod', operator: 'NotIn', values: ['yes'] },
    ]);
    expect(stoneage.spec?.policyTypes).toEqual(['Egress']);
    expect(stoneage.spec?.egress).toEqual([
      { to: [{ podSelector: {} }] },
      {
        to: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } }, podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } } }],
        ports: [
          { protocol: 'UDP', port: 53 },
          { protocol: 'TCP', port: 53 },
        ],
      },
    ]);
  });

  it('keeps configuration pods, which stoneage exempts, to their own namespace and the cluster DNS: no other namespace, no address block', () => {
    const guard = policies.get('antidote-egress-guard')!;
    expect(guard.spec?.podSelector).toEqual({ matchLabels: { configPod: 'yes' } });
    expect(guard.spec?.egress).toEqual([{ to: [{ podSelector: {} }] }, policies.get('stoneage')!.spec!.egress![1]]);
    expect(JSON.stringify(guard.spec)).not.toMatch(/namespaceSelector":\{\}|ipBlock/);
  });

  it('blocks IPv4 and IPv6 metadata and IPv6 link-local by default when egress is allowed', () => {
    const open = byName(buildNetworkPolicies(triangleLesson(), testConfig({ allowEgress: true })));
    expect(open.get('antidote-egress-guard')?.spec?.egress?.[1].to).toEqual([
      { ipBlock: { cidr: '0.0.0.0/0', except: ['169.254.169.254/32'] } },
      { ipBlock: { cidr: '::/0', except: ['fd00:ec2::254/128', 'fe80::/10'] } },
    ]);
  });

  it('with allowEgress: no stoneage, and the guard covers every pod (metadata still blocked)', () => {
    const open = byName(buildNetworkPolicies(triangleLesson(), testConfig({ allowEgress: true, network: { blockedCidrs: ['169.254.169.254/32', 'fd00:ec2::254/128'] } })));
    expect([...open.keys()]).toEqual(['antidote-ingress', 'antidote-egress-guard']);
    const guard = open.get('antidote-egress-guard')!;
    expect(guard.spec?.podSelector).toEqual({});
    expect(guard.spec?.egress?.[1].to).toEqual([
      { ipBlock: { cidr: '0.0.0.0/0', except: ['169.254.169.254/32'] } },
      { ipBlock: { cidr: '::/0', except: ['fd00:ec2::254/128'] } },
    ]);
  });

  it('allows only same-namespace ingress when no namespace is configured', () => {
    const closed = byName(buildNetworkPolicies(triangleLesson(), testConfig({ network: { ingressFromNamespaces: [] } })));
    expect(closed.get('antidote-ingress')?.spec?.ingress).toEqual([{ _from: [{ podSelector: {} }] }]);
  });

  it('produces schema-valid policies', () => {
    for (const policy of policies.values()) expect(kubeSchemaProblems(policy)).toEqual([]);
  });
});
