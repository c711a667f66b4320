import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { kubeSchemaProblems } from './kube-schema.js';

const pod = (): V1Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'ok', labels: { a: 'b' } },
  spec: { containers: [{ name: 'c', image: 'busybox', ports: [{ containerPort: 80 }] }] },
});

describe('kubeSchemaProblems (the checker itself can fail)', () => {
  it('accepts a minimal valid pod', () => {
    expect(kubeSchemaProblems(pod())).toEqual([]);
  });

  it('reports a field the Kubernetes types do not know', () => {
    const bad = pod() as V1Pod & { spec: { bogus?: number } };
    bad.spec.bogus = 1;
    expect(kubeSchemaProblems(bad).join()).toMatch(/fields unknown to V1Pod/);
  });

  it('reports a schema violation (missing required field, wrong type)', () => {
    const bad = pod();
    bad.spec!.containers[0].ports = [{ containerPort: 'http' as unknown as number }];
    expect(kubeSchemaProblems(bad).join()).toMatch(/schema: .*containerPort must be integer/);
    const noImage = { ...pod(), spec: { containers: [{ image: 'x' }] } } as unknown as V1Pod;
    expect(kubeSchemaProblems(noImage).join()).toMatch(/must have required property name/);
  });

  it('reports invalid names and labels', () => {
    const bad = pod();
    bad.metadata = { name: 'Not_Valid', labels: { 'bad key!': 'x', ok: '-bad-value' } };
    const problems = kubeSchemaProblems(bad).join('\n');
    expect(problems).toMatch(/name "Not_Valid" is not valid/);
    expect(problems).toMatch(/key bad key! is invalid/);
    expect(problems).toMatch(/label value ok=-bad-value is invalid/);
  });

  it('knows no schema for kinds it was not given', () => {
    expect(kubeSchemaProblems({ apiVersion: 'v1', kind: 'Bogus' })).toEqual(['no schema for v1/Bogus']);
  });
});
