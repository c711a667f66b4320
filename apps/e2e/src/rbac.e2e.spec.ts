import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { namespaceName } from '@antidote/lesson-objects';
import { SAMPLE_CURRICULUM } from '@antidote/testing';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { antictlUp, E2E_USER_AGENT, ROOT, runAntictl, type UpPlatform } from './support/antictl-up.js';
import { expClient, namespaceStatus, setSimFaults, simRequests } from './support/exp-client.js';

const RBAC_FILE = join(ROOT, 'deploy', 'k8s', 'base', 'rbac.yaml');
const INSTANCE = 'antidote-rbac';
const LONG = 300_000;
const APPS = ['antidote-scheduler', 'antidote-reaper'];
const ADMIN_TOKEN = 'rbac-admin-token';
/** A warm pool, so that a claim relabels a namespace (the scheduler's one namespace PATCH). */
const POOLED = 'jupyter-intro';
/** Where each kind a lesson namespace holds is listed in the Kubernetes API. */
const COLLECTIONS = {
  pods: '/api/v1/namespaces/{ns}/pods',
  services: '/api/v1/namespaces/{ns}/services',
  secrets: '/api/v1/namespaces/{ns}/secrets',
  jobs: '/apis/batch/v1/namespaces/{ns}/jobs',
  networkpolicies: '/apis/networking.k8s.io/v1/namespaces/{ns}/networkpolicies',
  ingresses: '/apis/networking.k8s.io/v1/namespaces/{ns}/ingresses',
  'network-attachment-definitions': '/apis/k8s.cni.cncf.io/v1/namespaces/{ns}/network-attachment-definitions',
} as const;

type Rule = { apiGroups: string[]; resources: string[]; verbs: string[] };
type RbacDoc = { kind: string; metadata: { name: string }; rules?: Rule[]; roleRef?: { name: string }; subjects?: { name: string }[] };

/** `group|resource|verb` of every permission the manifests give a ServiceAccount, through its bindings. */
function grantsOf(serviceAccount: string): Set<string> {
  const docs = parseAllDocuments(readFileSync(RBAC_FILE, 'utf8')).map((doc) => doc.toJS() as RbacDoc);
  const roles = new Map(docs.filter((doc) => doc.kind.endsWith('Role')).map((doc) => [doc.metadata.name, doc.rules ?? []]));
  const bound = docs
    .filter((doc) => doc.kind.endsWith('RoleBinding') && doc.subjects?.some((subject) => subject.name === serviceAccount))
    .map((doc) => doc.roleRef!.name);
  return new Set(
    bound.flatMap((role) =>
      roles
        .get(role)!
        .flatMap((rule) => rule.apiGroups.flatMap((group) => rule.resources.flatMap((resource) => rule.verbs.map((verb) => `${group}|${resource}|${verb}`)))),
    ),
  );
}

/**
 * Least privilege, both ways: every Kubernetes call an app makes (kube-sim's request log, by the
 * User-Agent each app sends, named as its ServiceAccount) is granted by deploy/k8s/base/rbac.yaml,
 * and every grant there is used. So the platform runs through the paths that only failures and
 * restarts take — adopting what a killed scheduler left, a pod that cannot start, a stage change, a
 * namespace stuck on finalizers, an orphan — before the request log is compared with the manifests.
 */
describe('RBAC: each app is granted exactly the Kubernetes calls it makes', () => {
  let platform: UpPlatform;
  const faults = (change: Record<string, unknown>) => setSimFaults(platform.kubeSim, change);
  const sim = async <T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> => {
    const response = await platform.kubeSim.call(init.method ?? 'GET', path, init.body);
    expect(response.code >= 200 && response.code < 300, `${init.method ?? 'GET'} ${path}: HTTP ${response.code}`).toBe(true);
    return response.body as T;
  };
  const items = async (kind: keyof typeof COLLECTIONS, ns: string) =>
    (await sim<{ items: { metadata: { name: string } }[] }>(COLLECTIONS[kind].replace('{ns}', ns))).items;
  const exp = (ip: string) => expClient(platform.api, ip);
  let lab = '';
  let labSession = '';
  let webSession = '';
  let web = '';

  beforeAll(async () => {
    platform = await antictlUp({
      config: {
        instanceId: INSTANCE,
        gc: { intervalSeconds: 1, orphanGraceSeconds: 1, stuckTerminatingSeconds: 1, removeStuckFinalizers: true },
        scheduler: { redriveIntervalSeconds: 1, redriveAfterSeconds: 2, claimLeaseSeconds: 5, prePull: { resyncSeconds: 1 }, poolIntervalSeconds: 1 },
        api: { rateLimitPerMinute: 0, adminToken: ADMIN_TOKEN },
        warmPools: { [POOLED]: { size: 1, maxAge: 0 } },
      },
      flags: ['--restart'],
    });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('hands a learner a warm lab from the pool and labels its namespace for the session', { timeout: LONG }, async () => {
    const pools = async () =>
      (
        (await (await fetch(`${platform.api}/exp/admin/pools`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as {
          pools: { ready: number }[];
        }
      ).pools;
    await expect.poll(async () => (await pools())[0]?.ready, { timeout: 120_000 }).toBe(1);
    const client = exp('10.40.0.4');
    const session = await client.newSession();
    const id = await client.requestLesson(session, POOLED);
    expect((await client.get<{ Status: string }>(`/exp/livelesson/${id}`)).body.Status).toBe('READY');
    const labels = async () =>
      (await sim<{ metadata: { labels?: Record<string, string> } }>(`/api/v1/namespaces/${namespaceName(INSTANCE, id)}`)).metadata.labels?.liveSession;
    await expect.poll(labels, { timeout: 60_000 }).toBe(session);
  });

  it('finishes two labs that a scheduler killed mid-way left behind, adopting every object, and changes a stage', { timeout: LONG }, async () => {
    // No ServiceAccount controller for now: the scheduler creates each lesson's namespace and the objects
    // before the pods, then waits for the namespace's ServiceAccount (its cluster-wide watch of them) —
    // no pod create is sent, so none is refused — until we play the controller's part.
    await faults({ jobRunDelayMs: 15_000, unreachable: ['web1'], serviceAccountDelayMs: 3_600_000 });
    labSession = await exp('10.40.0.1').newSession();
    lab = await exp('10.40.0.1').requestLesson(labSession, 'network-automation');
    webSession = await exp('10.40.0.2').newSession();
    web = await exp('10.40.0.2').requestLesson(webSession, 'web-services');
    for (const namespace of [namespaceName(INSTANCE, lab), namespaceName(INSTANCE, web)]) {
      const calls = async (resource: string) =>
        (await simRequests(platform.kubeSim)).filter((r) => r.verb === 'create' && r.resource === resource && r.namespace === namespace);
      await expect.poll(async () => (await calls('networkpolicies')).some((r) => r.code === 201), { timeout: 60_000 }).toBe(true);
      expect(await calls('pods')).toEqual([]);
      await sim(`/api/v1/namespaces/${namespace}/serviceaccounts`, {
        method: 'POST',
        body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } },
      });
    }
    await faults({ serviceAccountDelayMs: 20 });
    // network-automation configuring (its jobs exist), web-services waiting for web1 (its ingress exists).
    await expect.poll(async () => (await items('jobs', namespaceName(INSTANCE, lab))).length, { timeout: 60_000 }).toBe(3);
    await expect.poll(async () => (await items('ingresses', namespaceName(INSTANCE, web))).length, { timeout: 60_000 }).toBe(1);
    const from = platform.output().length;
    process.kill(platform.pidOf('scheduler'), 'SIGKILL');
    await platform.waitForOutput(/^scheduler exited \(SIGKILL\); restarted \(pid \d+\)$/m, 30_000, from);
    await faults({ jobRunDelayMs: 300, unreachable: [] });
    await exp('10.40.0.1').waitUntilReady(lab, 0, 120_000);
    await exp('10.40.0.2').waitUntilReady(web, 0, 120_000);
    expect(await exp('10.40.0.1').requestLesson(labSession, 'network-automation', 1)).toBe(lab);
    await exp('10.40.0.1').waitUntilReady(lab, 1, 120_000);
  });

  it('reports a pod that cannot start, with its log', { timeout: LONG }, async () => {
    await faults({ imagePullFailure: ['utility'] });
    try {
      const client = exp('10.40.0.3');
      const id = await client.requestLesson(await client.newSession(), 'linux-basics');
      await expect
        .poll(async () => (await client.get<{ message?: string }>(`/exp/livelesson/${id}`)).body.message ?? '', { timeout: 60_000, interval: 250 })
        .toMatch(/ImagePullBackOff|ErrImagePull/);
    } finally {
      await faults({ imagePullFailure: [] });
    }
  });

  it('lets the reaper free namespaces stuck on finalizers, and sweep an orphan', { timeout: LONG }, async () => {
    const labNs = namespaceName(INSTANCE, lab);
    const webNs = namespaceName(INSTANCE, web);
    for (const kind of Object.keys(COLLECTIONS) as (keyof typeof COLLECTIONS)[]) {
      const ns = kind === 'ingresses' ? webNs : labNs;
      const [first] = await items(kind, ns);
      expect(first, `a ${kind} in ${ns}`).toBeDefined();
      const path = `${COLLECTIONS[kind].replace('{ns}', ns)}/${first.metadata.name}`;
      const object = await sim<{ metadata: Record<string, unknown> }>(path);
      await sim(path, { method: 'PUT', body: { ...object, metadata: { ...object.metadata, finalizers: ['example.com/hold'] } } });
    }
    await faults({ stuckNamespaces: [labNs] });
    const orphan = namespaceName(INSTANCE, 'orphan0001');
    await sim('/api/v1/namespaces', {
      method: 'POST',
      body: {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: orphan, labels: { antidoteManaged: 'yes', antidoteId: INSTANCE, liveLesson: 'orphan0001' } },
      },
    });
    expect((await exp('10.40.0.1').delete(`/exp/livelesson/${lab}?sessionId=${labSession}`)).status).toBe(200);
    expect((await exp('10.40.0.2').delete(`/exp/livelesson/${web}?sessionId=${webSession}`)).status).toBe(200);
    for (const ns of [labNs, webNs, orphan]) await expect.poll(() => namespaceStatus(platform.kubeSim, ns), { timeout: 60_000 }).toBe(404);
  });

  it('updates the pre-pull DaemonSet when `antictl curriculum import` changes the images', { timeout: LONG }, async () => {
    type DaemonSet = { metadata: { uid: string }; spec: { template: { spec: { initContainers: { image: string }[] } } } };
    const path = `/apis/apps/v1/namespaces/prod/daemonsets/antidote-prepull-${INSTANCE}`;
    const images = async () => (await sim<DaemonSet>(path)).spec.template.spec.initContainers.map((container) => container.image);
    await expect.poll(async () => (await images()).length, { timeout: 60_000 }).toBeGreaterThan(1);
    const before = await sim<DaemonSet>(path);
    const changed = join(mkdtempSync(join(tmpdir(), 'rbac-curriculum-')), 'curriculum');
    cpSync(SAMPLE_CURRICULUM, changed, { recursive: true });
    cpSync(join(changed, 'images', 'utility'), join(changed, 'images', 'frr'), { recursive: true });
    const meta = join(changed, 'images', 'frr', 'image.meta.yaml');
    writeFileSync(meta, readFileSync(meta, 'utf8').replace('slug: utility', 'slug: frr'));
    const imported = await runAntictl(['curriculum', 'import', changed, '--config', join(platform.dir, 'antidote-config.yml')]);
    expect(imported.code, imported.stderr).toBe(0);
    await expect.poll(images, { timeout: 60_000 }).toContain('antidotelabs/frr:latest');
    expect((await sim<DaemonSet>(path)).metadata.uid).toBe(before.metadata.uid);
  });

  it('grants each app every call it made, and nothing it did not make', async () => {
    // Made only when the NAD CRD is not yet Established as the scheduler lists it (its wait then watches);
    // kube-sim establishes it right after the create, so here the list already answers.
    const ONLY_IF_SLOW = new Set(['apiextensions.k8s.io|customresourcedefinitions|watch']);
    const requests = await simRequests(platform.kubeSim);
    const calls = requests.filter((request) => request.resource);
    // Every call comes from an app that names itself, or from this test.
    expect([...new Set(calls.map((call) => call.userAgent))].filter((agent) => agent !== E2E_USER_AGENT).sort()).toEqual([...APPS].sort());
    for (const app of APPS) {
      const used = new Set(
        calls
          .filter((call) => call.userAgent === app)
          .map((call) => `${call.group}|${call.subresource ? `${call.resource}/${call.subresource}` : call.resource}|${call.verb}`),
      );
      const granted = grantsOf(app);
      expect({ app, missing: [...used].filter((key) => !granted.has(key)).sort() }).toEqual({ app, missing: [] });
      expect({ app, unused: [...granted].filter((key) => !used.has(key) && !ONLY_IF_SLOW.has(key)).sort() }).toEqual({ app, unused: [] });
    }
  });
});
