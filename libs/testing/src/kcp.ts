import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { kubeRest } from './kube-rest.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..', '..', '..');
/** The kcp folder (start.sh, stop.sh, bin/): env ANTIDOTE_TEST_KCP, else `<repo>/../shared/kcp`. */
export const KCP_ENV = 'ANTIDOTE_TEST_KCP';
/** The admin kubeconfig of a control plane already running for this test run (set by test-conformance.sh). */
export const KCP_KUBECONFIG_ENV = 'ANTIDOTE_TEST_KCP_KUBECONFIG';
/** Set by the conformance global setup for the test files: the cluster, as JSON (see `ConformanceCluster`). */
export const CLUSTER_ENV = 'ANTIDOTE_TEST_CLUSTER';

export function kcpDir(): string | undefined {
  const dir = process.env[KCP_ENV] ?? join(ROOT, '..', 'shared', 'kcp');
  return existsSync(join(dir, 'start.sh')) ? dir : undefined;
}

/**
 * Starts kcp with its state in `state`; resolves with the admin kubeconfig once the control plane is ready.
 * `timeoutSeconds`: how long start.sh waits for it (its KCP_TIMEOUT; its own default when not given).
 */
export async function startKcp(
  dir: string,
  state: string,
  options: { timeoutSeconds?: number } = {},
): Promise<{ kubeconfig: string; stop: () => Promise<void> }> {
  const env = options.timeoutSeconds === undefined ? process.env : { ...process.env, KCP_TIMEOUT: String(options.timeoutSeconds) };
  const { stdout } = await run('bash', [join(dir, 'start.sh'), state], { env, maxBuffer: 16 * 1024 * 1024 });
  return { kubeconfig: stdout.trim().split('\n').pop()!, stop: async () => void (await run('bash', [join(dir, 'stop.sh'), state])) };
}

/** Where the control plane of an admin kubeconfig kcp wrote answers, and the admin's bearer token. */
export function kcpAddress(adminKubeconfig: string): { url: string; token: string } {
  const config = parse(readFileSync(adminKubeconfig, 'utf8')) as { clusters: { cluster: { server: string } }[]; users: { user: { token: string } }[] };
  return { url: config.clusters[0].cluster.server, token: config.users[0].user.token };
}

/** Kubeconfigs per app, each with its own ServiceAccount token; the admin's for the tests' own checks. */
export interface ConformanceCluster {
  admin: string;
  scheduler: string;
  reaper: string;
  /** No credentials at all: an app that must never call Kubernetes (the healthchecker). */
  anonymous: string;
}

const RBAC_KINDS = new Set(['Namespace', 'ServiceAccount', 'ClusterRole', 'Role', 'ClusterRoleBinding', 'RoleBinding']);
const PLURALS: Record<string, string> = {
  Namespace: 'namespaces',
  ServiceAccount: 'serviceaccounts',
  ClusterRole: 'clusterroles',
  Role: 'roles',
  ClusterRoleBinding: 'clusterrolebindings',
  RoleBinding: 'rolebindings',
  Secret: 'secrets',
  RuntimeClass: 'runtimeclasses',
};

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
}
const pathOf = (object: Manifest): string => {
  const base = object.apiVersion === 'v1' ? '/api/v1' : `/apis/${object.apiVersion}`;
  return `${base}${object.metadata.namespace ? `/namespaces/${object.metadata.namespace}` : ''}/${PLURALS[object.kind]}`;
};

/**
 * Prepares a real cluster as the platform is deployed on it: the RBAC objects of deploy/k8s/base rendered
 * by kustomize (namespace `antidote`, the apps' ServiceAccounts, roles and bindings), a token per app from
 * the TokenRequest API in a kubeconfig of its own, the secrets namespace with its TLS secret, and the
 * `kata` RuntimeClass (the RuntimeClass admission plugin refuses pods naming one that does not exist).
 */
export async function prepareCluster(adminKubeconfig: string, workDir: string): Promise<ConformanceCluster> {
  const api = kubeRest(adminKubeconfig);
  const rendered = execFileSync('kubectl', ['kustomize', join(ROOT, 'deploy', 'k8s', 'base')], { encoding: 'utf8' });
  const manifests = parseAllDocuments(rendered)
    .map((doc) => doc.toJS() as Manifest)
    .filter((object) => RBAC_KINDS.has(object.kind));
  // What a cluster that runs lessons has: the RuntimeClass of untrusted endpoints (config podResources.untrustedRuntimeClass).
  const cluster = [
    { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'kata' }, handler: 'kata' },
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'prod' } },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'tls-certificate', namespace: 'prod' },
      type: 'kubernetes.io/tls',
      data: { 'tls.crt': 'Y3J0', 'tls.key': 'a2V5' },
    },
  ];
  for (const object of [...manifests.sort((a, b) => Number(b.kind === 'Namespace') - Number(a.kind === 'Namespace')), ...cluster]) {
    await api.must('POST', pathOf(object), object, [409]);
  }
  mkdirSync(workDir, { recursive: true });
  const admin = parse(readFileSync(adminKubeconfig, 'utf8')) as { clusters: { cluster: Record<string, unknown> }[] };
  const write = (name: string, user: Record<string, string>): string => {
    const file = join(workDir, `${name}.kubeconfig`);
    const config = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'kcp', cluster: admin.clusters[0].cluster }],
      users: [{ name, user }],
      contexts: [{ name, context: { cluster: 'kcp', user: name } }],
      'current-context': name,
    };
    writeFileSync(file, stringify(config), { mode: 0o600 });
    return file;
  };
  const token = async (serviceAccount: string): Promise<string> => {
    const request = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 6 * 3600 } };
    const answer = await api.must('POST', `/api/v1/namespaces/antidote/serviceaccounts/${serviceAccount}/token`, request);
    return (answer.body.status as { token: string }).token;
  };
  return {
    admin: adminKubeconfig,
    scheduler: write('antidote-scheduler', { token: await token('antidote-scheduler') }),
    reaper: write('antidote-reaper', { token: await token('antidote-reaper') }),
    anonymous: write('anonymous', {}),
  };
}

/** The cluster the conformance global setup prepared, or why there is none. */
export function conformanceCluster(): ConformanceCluster | undefined {
  const json = process.env[CLUSTER_ENV];
  return json ? (JSON.parse(json) as ConformanceCluster) : undefined;
}
