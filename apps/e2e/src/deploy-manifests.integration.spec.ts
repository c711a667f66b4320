import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { parseConfig } from '@antidote/config';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const k8s = join(root, 'deploy', 'k8s');

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
}

interface Deployment extends Manifest {
  spec: {
    replicas: number;
    template: {
      spec: {
        serviceAccountName: string;
        containers: { image: string; env?: { name: string }[]; livenessProbe?: unknown; readinessProbe?: unknown; resources?: { requests?: unknown } }[];
      };
    };
  };
}

/** kubernetes-models module of a kind (`apps/v1` Deployment → `kubernetes-models/apps/v1/Deployment`). */
const modelPath = (manifest: Manifest) => `kubernetes-models/${manifest.apiVersion}/${manifest.kind}`;

const render = (dir: string) =>
  parseAllDocuments(execFileSync('kubectl', ['kustomize', join(k8s, dir)], { encoding: 'utf8' })).map((doc) => doc.toJS() as Manifest);
const deploymentsOf = (manifests: Manifest[]) => manifests.filter((m): m is Deployment => m.kind === 'Deployment');
const replicasOf = (manifests: Manifest[]) => Object.fromEntries(deploymentsOf(manifests).map((d) => [d.metadata.name, d.spec.replicas]));

describe.each(['base', 'overlays/single-node', 'overlays/production'])('Kubernetes manifests (deploy/k8s/%s)', (dir) => {
  const manifests = render(dir);

  it('render with kustomize: every app a Deployment with probes, resources and its own service account', () => {
    const deployments = deploymentsOf(manifests);
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

  it('hold a configuration the apps accept, with every environment variable the Deployments set', () => {
    const configMap = manifests.find((m) => m.kind === 'ConfigMap' && m.metadata.name === 'antidote-config') as unknown as { data: Record<string, string> };
    const env = Object.fromEntries(
      deploymentsOf(manifests)
        .flatMap((d) => d.spec.template.spec.containers[0].env ?? [])
        .map(({ name }) => [name, name === 'ANTIDOTE_DATABASE_URL' ? 'postgres://antidote@db/antidote' : 'value']),
    );
    const { warnings } = parseConfig(parse(configMap.data['antidote-config.yml']) as Record<string, unknown>, { env });
    expect(warnings).toEqual([]);
  });

  it('give each app its own NATS login, required, and let only Antidote pods reach NATS', () => {
    for (const deployment of deploymentsOf(manifests)) {
      const env = (deployment.spec.template.spec.containers[0].env ?? []) as {
        name: string;
        value?: string;
        valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
      }[];
      const app = deployment.metadata.name.replace('antidote-', '');
      expect(env.find((entry) => entry.name === 'ANTIDOTE_NATS_USER')?.value, app).toBe(app);
      expect(env.find((entry) => entry.name === 'ANTIDOTE_NATS_PASSWORD')?.valueFrom?.secretKeyRef, app).toEqual({
        name: 'antidote-nats',
        key: `${app}-password`,
      });
    }
    const nats = manifests.find((m) => m.kind === 'NetworkPolicy' && m.metadata.name === 'antidote-nats') as unknown as {
      spec: { podSelector: unknown; ingress: { from: unknown[]; ports: unknown[] }[] };
    };
    expect(nats.spec.podSelector).toEqual({ matchLabels: { 'app.kubernetes.io/name': 'nats' } });
    expect(nats.spec.ingress[0]).toEqual({ from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/part-of': 'antidote' } } }], ports: [{ port: 4222 }] });
    expect(manifests.some((m) => m.kind === 'ConfigMap' && m.metadata.name === 'antidote-nats-authorization')).toBe(true);
  });
});

describe('overlays', () => {
  it('single-node runs one replica of each app', () => {
    expect(Object.values(replicasOf(render('overlays/single-node')))).toEqual([1, 1, 1, 1]);
  });

  it('production replicates every app, budgets disruptions, pins images and sends traces', () => {
    const manifests = render('overlays/production');
    expect(Object.values(replicasOf(manifests)).every((count) => count > 1)).toBe(true);
    expect(
      manifests
        .filter((m) => m.kind === 'PodDisruptionBudget')
        .map((m) => m.metadata.name)
        .sort(),
    ).toEqual(['antidote-api', 'antidote-healthchecker', 'antidote-reaper', 'antidote-scheduler']);
    expect(deploymentsOf(manifests).every((d) => /:\d+\.\d+\.\d+$/.test(d.spec.template.spec.containers[0].image))).toBe(true);
    const configMap = manifests.find((m) => m.kind === 'ConfigMap' && m.metadata.name === 'antidote-config') as unknown as { data: Record<string, string> };
    const { config } = parseConfig(parse(configMap.data['antidote-config.yml']) as Record<string, unknown>);
    expect(config.tracing.exporter).toBe('otlp');
  });
});
