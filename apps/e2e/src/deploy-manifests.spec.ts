import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
export const RBAC_FILE = join(root, 'deploy', 'k8s', 'base', 'rbac.yaml');

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
}

/** kubernetes-models module of a kind (`apps/v1` Deployment → `kubernetes-models/apps/v1/Deployment`). */
const modelPath = (manifest: Manifest) => `kubernetes-models/${manifest.apiVersion}/${manifest.kind}`;

describe('Kubernetes manifests (deploy/k8s/base)', () => {
  const rendered = execFileSync('kubectl', ['kustomize', join(root, 'deploy', 'k8s', 'base')], { encoding: 'utf8' });
  const manifests = parseAllDocuments(rendered).map((doc) => doc.toJS() as Manifest);

  it('render with kustomize: every app a Deployment with probes, resources and its own service account', () => {
    const deployments = manifests.filter((m) => m.kind === 'Deployment') as unknown as {
      metadata: { name: string };
      spec: { template: { spec: { serviceAccountName: string; containers: { livenessProbe?: unknown; readinessProbe?: unknown; resources?: { requests?: unknown } }[] } } };
    }[];
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual(['antidote-api', 'antidote-healthchecker', 'antidote-reaper', 'antidote-scheduler']);
    for (const deployment of deployments) {
      const container = deployment.spec.template.spec.containers[0];
      expect(container.livenessProbe && container.readinessProbe && container.resources?.requests, deployment.metadata.name).toBeTruthy();
    }
    expect(manifests.filter((m) => m.metadata.namespace && m.kind !== 'Namespace').every((m) => m.metadata.namespace === 'antidote')).toBe(true);
  });

  it('validate against the Kubernetes schemas', async () => {
    for (const manifest of manifests) {
      const module = (await import(modelPath(manifest))) as Record<string, new (data: unknown) => { validate(): void }>;
      const Model = module[manifest.kind];
      expect(() => new Model(manifest).validate(), `${manifest.kind} ${manifest.metadata.name}`).not.toThrow();
    }
  });
});
