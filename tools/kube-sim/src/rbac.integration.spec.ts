import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTokenFile } from './index.js';
import { execUpgradeStatus, startSim, type SimFixture } from '../test/sim-fixture.js';

const TOKENS = ['admin-token,admin,1,"system:masters"', 'alice-token,alice,2,"developers,qa"', 'bob-token,bob,3'].join('\n');

/** kube-sim with a token file and RBAC: client-node sees 401/403 as from a real API server. */
describe('authentication and RBAC', () => {
  let fixture: SimFixture;
  /** client-node APIs authenticated with a bearer token, trusting the simulator's certificate. */
  const as = (token: string) => {
    const config = new k8s.KubeConfig();
    config.loadFromOptions({
      clusters: [{ name: 'sim', server: fixture.sim.url, caData: Buffer.from(fixture.sim.ca).toString('base64') }],
      users: [{ name: 'user', token }],
      contexts: [{ name: 'ctx', cluster: 'sim', user: 'user' }],
      currentContext: 'ctx',
    });
    return { core: config.makeApiClient(k8s.CoreV1Api), batch: config.makeApiClient(k8s.BatchV1Api) };
  };
  const failure = async (call: Promise<unknown>): Promise<{ code: number; body: Record<string, unknown> }> => {
    try {
      await call;
    } catch (error) {
      const apiError = error as k8s.ApiException<string>;
      return { code: apiError.code, body: JSON.parse(apiError.body) as Record<string, unknown> };
    }
    throw new Error('the call was allowed');
  };

  beforeAll(async () => {
    fixture = await startSim({ auth: { tokens: parseTokenFile(TOKENS), rbac: true } });
    const rbac = fixture.config.makeApiClient(k8s.RbacAuthorizationV1Api);
    for (const name of ['team', 'other']) await fixture.core.createNamespace({ body: { metadata: { name } } });
    await rbac.createNamespacedRole({
      namespace: 'team',
      body: { metadata: { name: 'pod-reader' }, rules: [{ apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list', 'watch'] }] },
    });
    await rbac.createNamespacedRoleBinding({
      namespace: 'team',
      body: {
        metadata: { name: 'developers-read-pods' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'developers' }],
      },
    });
  });
  afterAll(() => fixture?.sim.stop());

  it('the written kubeconfig carries the admin token (system:masters may do anything)', async () => {
    expect((await fixture.core.listNamespace()).items.map((ns) => ns.metadata?.name)).toEqual(expect.arrayContaining(['team', 'other']));
  });

  it('a token whose group a Role allows lists pods in that namespace', async () => {
    expect((await as('alice-token').core.listNamespacedPod({ namespace: 'team' })).items).toEqual([]);
  });

  it('gets the API server 403 elsewhere and for verbs the Role lacks', async () => {
    const alice = as('alice-token');
    expect(await failure(alice.core.listNamespacedPod({ namespace: 'other' }))).toMatchObject({
      code: 403,
      body: {
        kind: 'Status',
        reason: 'Forbidden',
        message: 'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "other"',
        details: { kind: 'pods' },
      },
    });
    expect((await failure(alice.core.createNamespacedConfigMap({ namespace: 'team', body: { metadata: { name: 'x' } } }))).body.message).toBe(
      'configmaps is forbidden: User "alice" cannot create resource "configmaps" in API group "" in the namespace "team"',
    );
    expect((await failure(as('bob-token').core.listNamespace())).body.message).toBe(
      'namespaces is forbidden: User "bob" cannot list resource "namespaces" in API group "" at the cluster scope',
    );
    expect(await failure(alice.batch.readNamespacedJob({ namespace: 'team', name: 'j' }))).toMatchObject({
      code: 403,
      body: {
        message: 'jobs.batch "j" is forbidden: User "alice" cannot get resource "jobs" in API group "batch" in the namespace "team"',
        details: { name: 'j', group: 'batch', kind: 'jobs' },
      },
    });
  });

  it('an unknown token gets 401 Unauthorized; no token is system:anonymous', async () => {
    const unknown = await fixture.sim.fetch('/api/v1/namespaces/team/pods', { token: 'nope' });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      reason: 'Unauthorized',
      message: 'Unauthorized',
      code: 401,
    });
    const anonymous = (await fixture.sim.fetch('/api/v1/namespaces/team/pods', { token: null }).then((r) => r.json())) as { message: string };
    expect(anonymous.message).toBe('pods is forbidden: User "system:anonymous" cannot list resource "pods" in API group "" in the namespace "team"');
    expect((await fixture.sim.fetch('/api', { token: null })).status).toBe(403);
    expect((await fixture.sim.fetch('/api', { token: 'bob-token' })).status).toBe(200);
    expect((await fixture.sim.fetch('/version', { token: null })).status).toBe(200);
    expect((await fixture.sim.fetch('/healthz', { token: null })).status).toBe(200);
    // The simulator's own controls are the admin's.
    expect((await fixture.sim.fetch('/_sim/faults', { token: null })).status).toBe(403);
    expect((await fixture.sim.fetch('/_sim/faults', { token: 'bob-token' })).status).toBe(403);
    expect((await fixture.sim.fetch('/_sim/faults', { method: 'PATCH', token: 'alice-token', body: '{"crash":["x"]}' })).status).toBe(403);
    expect(fixture.sim.faults.crash).toEqual([]);
    expect((await fixture.sim.fetch('/_sim/faults', { token: 'admin-token' })).status).toBe(200);
  });

  it('exec needs create on pods/exec', async () => {
    expect(await execUpgradeStatus(fixture.sim, '/api/v1/namespaces/team/pods/p/exec?command=echo', 'alice-token')).toBe(403);
  });
});
