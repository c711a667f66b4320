import { execFile } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execUpgradeStatus, startSim, type SimFixture } from '../test/sim-fixture.js';

const run = promisify(execFile);
const UNAUTHORIZED = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };
const PRIVILEGED = JSON.stringify({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'root' },
  spec: { containers: [{ name: 'c', image: 'busybox', securityContext: { privileged: true } }] },
});

/**
 * kube-sim as `antictl up` runs it, with nothing configured: only the admin token of its kubeconfig (random
 * per run) gets in; no token or another one gets the API server's 401, over TLS checked against the
 * certificate in that kubeconfig. What another local user tried without the token — read a lesson's
 * Secret, delete a learner's namespace, create a privileged pod, exec, change the simulator's faults —
 * is refused and changes nothing.
 */
describe('authentication by default', () => {
  let fixture: SimFixture;
  const kubectl = (kubeconfig: string, ...args: string[]) =>
    run('kubectl', ['--kubeconfig', kubeconfig, ...args], { timeout: 120_000 }).then(
      ({ stdout }) => ({ code: 0, out: stdout }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code ?? 1, out: error.stderr ?? '' }),
    );

  beforeAll(async () => {
    fixture = await startSim();
    await fixture.core.createNamespace({ body: { metadata: { name: 'learner' } } });
    await fixture.core.createNamespacedSecret({ namespace: 'learner', body: { metadata: { name: 'device-logins' }, stringData: { password: 'hunter2' } } });
  });
  afterAll(() => fixture?.sim.stop());

  it.each([
    ['no token', null, {}],
    ['a token nobody has', 'guessed', {}],
    ['an empty bearer token', null, { Authorization: 'Bearer ' }],
    ['another scheme', null, { Authorization: 'Basic YWRtaW46YWRtaW4=' }],
  ] as const)('%s: every attack gets 401 Unauthorized and changes nothing', async (_name, token, headers) => {
    const attempt = (method: string, path: string, body?: string) =>
      fixture.sim.fetch(path, { method, token, headers: { ...headers, 'content-type': 'application/json' }, body });
    const attempts = [
      await attempt('GET', '/api/v1/namespaces/learner/secrets/device-logins'),
      await attempt('GET', '/api/v1/secrets'),
      await attempt('DELETE', '/api/v1/namespaces/learner'),
      await attempt('POST', '/api/v1/namespaces/learner/pods', PRIVILEGED),
      await attempt('PATCH', '/_sim/faults', '{"unreachable":["*"]}'),
      await attempt('POST', '/_sim/outage', '{"ms":60000}'),
      await attempt('GET', '/_sim/requests'),
      await attempt('GET', '/healthz'),
    ];
    for (const response of attempts) {
      expect(response.status).toBe(401);
      expect(response.headers.get('cache-control')).toBe('no-cache, private');
      expect(await response.json()).toEqual(UNAUTHORIZED);
    }
    expect((await fixture.core.readNamespace({ name: 'learner' })).status?.phase).toBe('Active');
    expect((await fixture.core.listNamespacedPod({ namespace: 'learner' })).items).toEqual([]);
    expect(fixture.sim.faults).toMatchObject({ unreachable: [], outageUntil: 0 });
  });

  it('refuses an exec upgrade without the token', async () => {
    expect(await execUpgradeStatus(fixture.sim, '/api/v1/namespaces/learner/pods/p/exec?command=sh')).toBe(401);
  });

  it('lets the admin token of its kubeconfig do anything, and kubectl with that kubeconfig', async () => {
    expect((await fixture.sim.fetch('/api/v1/namespaces/learner/secrets/device-logins')).status).toBe(200);
    expect((await fixture.sim.fetch('/healthz')).status).toBe(200);
    expect((await fixture.sim.fetch('/_sim/stats')).status).toBe(200);
    const { code, out } = await kubectl(fixture.kubeconfig, 'get', 'secrets', '-n', 'learner', '-o', 'name');
    expect({ code, out }).toEqual({ code: 0, out: 'secret/device-logins\n' });
  });

  it('refuses kubectl with another token, and a server certificate other than its own', async () => {
    const config = parse(readFileSync(fixture.kubeconfig, 'utf8')) as {
      users: { user: { token: string } }[];
      clusters: { cluster: Record<string, unknown> }[];
    };
    const wrongToken = join(dirname(fixture.kubeconfig), 'wrong-token');
    writeFileSync(wrongToken, stringify({ ...config, users: [{ ...config.users[0], user: { token: 'guessed' } }] }));
    expect(await kubectl(wrongToken, 'get', 'secrets', '-n', 'learner')).toMatchObject({ code: 1, out: expect.stringContaining('Unauthorized') });
    const other = await startSim();
    try {
      const otherCa = join(dirname(fixture.kubeconfig), 'other-ca');
      writeFileSync(
        otherCa,
        stringify({
          ...config,
          clusters: [
            { ...config.clusters[0], cluster: { ...config.clusters[0].cluster, 'certificate-authority-data': Buffer.from(other.sim.ca).toString('base64') } },
          ],
        }),
      );
      expect(await kubectl(otherCa, 'get', 'namespaces')).toMatchObject({ code: 1, out: expect.stringMatching(/certificate/) });
      expect(other.sim.token).not.toBe(fixture.sim.token);
    } finally {
      await other.sim.stop();
    }
  }, 180_000);

  it('writes the kubeconfig 0600, also over a file an earlier run left readable', () => {
    expect(statSync(fixture.kubeconfig).mode & 0o777).toBe(0o600);
    const earlier = join(dirname(fixture.kubeconfig), 'earlier');
    writeFileSync(earlier, 'left by an earlier run', { mode: 0o644 });
    fixture.sim.writeKubeconfig(earlier);
    expect(statSync(earlier).mode & 0o777).toBe(0o600);
    expect(parse(readFileSync(earlier, 'utf8'))).toMatchObject({ users: [{ user: { token: fixture.sim.token } }] });
  });

  it('lets anyone in only when a test asks for anonymous access', async () => {
    const open = await startSim({ auth: { anonymous: true } });
    try {
      expect((await open.sim.fetch('/api/v1/namespaces', { token: null })).status).toBe(200);
      expect((await open.sim.fetch('/api/v1/namespaces', { token: 'guessed' })).status).toBe(401);
    } finally {
      await open.sim.stop();
    }
  });
});
