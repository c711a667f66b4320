import { describe, expect, it } from 'vitest';
import { kubeSchemaProblems, wireForm } from '../../test/kube-schema.js';
import { testConfig, triangleLesson } from '../../test/lesson-fixture.js';
import { buildConfigObjects, buildLessonObjects } from './lesson-objects.js';
import { LessonObjectError } from './lesson-object.error.js';

describe('buildLessonObjects (3 endpoints, 3 links, 1 http presentation)', () => {
  const config = testConfig();
  const set = buildLessonObjects(triangleLesson(), config);
  const typed = [
    set.namespace,
    ...set.networkPolicies,
    set.resourceQuota!,
    set.limitRange!,
    ...set.endpoints.flatMap((e) => [e.pod, e.service, ...e.ingresses]),
    ...buildConfigObjects(triangleLesson(), 1, config).jobs,
    buildConfigObjects(triangleLesson(), 1, config).credentials,
  ];

  it('contains the object set of §5.5 plus the new policies, quota and limits', () => {
    expect(set.namespace.metadata?.name).toBe('antidote-testing-abcdef1234');
    expect(set.networkPolicies.map((p) => p.metadata?.name)).toEqual(['stoneage']);
    expect(set.resourceQuota?.metadata?.name).toBe('antidote-quota');
    expect(set.limitRange?.metadata?.name).toBe('antidote-limits');
    expect(set.secretsToCopy).toEqual(['tls-certificate']);
    expect(set.networkAttachments.map((n) => n.metadata.name)).toEqual(['vqfx1-vqfx2-net', 'vqfx2-vqfx3-net', 'vqfx1-vqfx3-net']);
    expect(set.endpoints.map((e) => e.pod.metadata?.name)).toEqual(['vqfx1', 'vqfx2', 'vqfx3']);
    expect(set.endpoints.map((e) => e.service.metadata?.name)).toEqual(['vqfx1', 'vqfx2', 'vqfx3']);
    expect(set.endpoints.flatMap((e) => e.ingresses.map((i) => i.metadata?.name))).toEqual(['vqfx3-web']);
  });

  it.each(typed.map((object) => [`${object.kind} ${object.metadata?.name}`, object] as const))('%s is valid against the Kubernetes schema', (_name, object) => {
    expect(kubeSchemaProblems(object)).toEqual([]);
  });

  it('puts every namespaced object into the lesson namespace', () => {
    for (const object of [...typed.slice(1), ...set.networkAttachments]) expect(object.metadata?.namespace).toBe('antidote-testing-abcdef1234');
  });

  it('serialises client-node field names to the wire names (from, default)', () => {
    const ingress = wireForm(set.networkPolicies[0]) as { spec: { ingress: Record<string, unknown>[] } };
    expect(Object.keys(ingress.spec.ingress[0])).toEqual(['from']);
    const limits = wireForm(set.limitRange!) as { spec: { limits: Record<string, unknown>[] } };
    expect(limits.spec.limits[0]).toHaveProperty('default', { cpu: '1', memory: '1Gi' });
  });

  it('leaves out quota and limits when disabled, and egress rules when egress is allowed and nothing is blocked', () => {
    const open = buildLessonObjects(
      triangleLesson(),
      testConfig({ quota: { enabled: false }, limitRange: { enabled: false }, allowEgress: true, network: { blockedCidrs: [] } }),
    );
    expect(open.resourceQuota).toBeUndefined();
    expect(open.limitRange).toBeUndefined();
    expect(open.networkPolicies.map((p) => [p.metadata?.name, p.spec?.policyTypes])).toEqual([['antidote-isolation', ['Ingress']]]);
  });

  it('copies the pull secret too when one is configured', () => {
    const withPull = buildLessonObjects(triangleLesson(), testConfig({ pullCredName: 'docker-pull-creds', tlsCertName: 'heps-tls' }));
    expect(withPull.secretsToCopy).toEqual(['heps-tls', 'docker-pull-creds']);
  });

  it('refuses to build anything for a lesson whose image is missing', () => {
    const input = triangleLesson({ images: new Map() });
    expect(() => buildLessonObjects(input, config)).toThrow(LessonObjectError);
  });
});
