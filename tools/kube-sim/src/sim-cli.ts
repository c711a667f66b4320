import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseTokenFile } from './auth/tokens.js';
import { startKubeSim } from './kube-sim.js';
import { parseBootProfiles } from './endpoints/boot-profile.js';
import { DEFAULT_SHARED_AFTER } from './endpoints/port-registry.js';

const HELP = `kube-sim — a Kubernetes API simulator

  kube-sim [--port 0] [--host 127.0.0.1] [--kubeconfig <file>] [options]
  kube-sim nodes --kubeconfig <real cluster> [options]   simulated nodes for a real control plane (see --help there)

  --port <p>                 listen port (0: a free one; the URL is printed)
  --kubeconfig <file>        write a kubeconfig for the simulator there
  --ssh-user <user:password> accept only this SSH login on endpoints (repeatable; default: any)
  --nodes <n>                nodes pods are spread over (default 1), each with its own image cache
  --image-pull-delay <ms>    time to pull an image onto a node (first pod of that image there only)
  --image-pull-delay-for <pattern=ms>  pull time of matching images (repeatable; overrides --image-pull-delay)
  --pod-start-delay <ms>     Pending → Running delay          --job-run-delay <ms>   config job duration
  --namespace-delete-delay <ms>                                --seed <n>             error injection seed
  --image-pull-failure <pattern>  --crash <pattern>  --init-failure <pattern>  --stuck-namespace <pattern>
  --job-failure <pattern:times>   --error <verb:resource:code:rate>   --latency <key:ms>
  --unreachable <pattern>    pods/services of that name (or podName label) refuse every connection
  --booting <pattern>        pods/services of that name (or podName label) answer but are still booting
  --boot-delay <ms>          every endpoint boots this long after its ports open (shell: "still booting", HTTP 503)
  --boot-profile <spec>      how devices boot, per image pattern (repeatable; the first match wins), e.g.
                             'vqfx*=150s,cvx*=45s/jitter=5%' or 'realistic' (the sample curriculum's images and
                             common router/switch images as they boot); an entry is <pattern>=<time to CLI>
                             [/port=<d>][/login=<d>][/jitter=<n>%][/fail][/reboot] (port 60 %, login 75 % of it by default)
  --shared-listeners-after <n>  past n addresses on one port, one wildcard socket (0.0.0.0) serves it (default 2048)
  --secret <namespace/name>  create an (empty TLS) secret at start, e.g. prod/tls-certificate
  --token-auth-file <csv>    bearer tokens (token,user,uid,"group1,group2"); unknown tokens get 401. Without a
                             system:masters one, kube-sim makes a random admin token (in the kubeconfig)
  --authorization-mode <m>   AlwaysAllow (default) or RBAC (Roles and bindings stored in kube-sim)
  --anonymous-auth <bool>    requests without a token are system:anonymous (default: true with RBAC, false
                             without, as the API server); false: 401

Serves HTTPS only, with a self-signed certificate made at start (the kubeconfig's certificate-authority-data).

Admin API on the same port (with the admin token): /_sim/faults (GET, PATCH), /_sim/counters, /_sim/requests, /_sim/stats, /_sim/endpoints,
GET/DELETE /_sim/images (each node's images), POST /_sim/watches/drop, /_sim/history/compact, /_sim/outage {"ms":30000}, /_sim/counters/reset.`;

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    kubeconfig: { type: 'string' },
    'ssh-user': { type: 'string', multiple: true, default: [] },
    nodes: { type: 'string', default: '1' },
    'image-pull-delay': { type: 'string', default: '0' },
    'image-pull-delay-for': { type: 'string', multiple: true, default: [] },
    'pod-start-delay': { type: 'string', default: '0' },
    'job-run-delay': { type: 'string', default: '0' },
    'namespace-delete-delay': { type: 'string', default: '0' },
    seed: { type: 'string', default: '42' },
    'image-pull-failure': { type: 'string', multiple: true, default: [] },
    crash: { type: 'string', multiple: true, default: [] },
    'init-failure': { type: 'string', multiple: true, default: [] },
    'stuck-namespace': { type: 'string', multiple: true, default: [] },
    unreachable: { type: 'string', multiple: true, default: [] },
    booting: { type: 'string', multiple: true, default: [] },
    'boot-delay': { type: 'string', default: '0' },
    'boot-profile': { type: 'string', multiple: true, default: [] },
    'job-failure': { type: 'string', multiple: true, default: [] },
    error: { type: 'string', multiple: true, default: [] },
    latency: { type: 'string', multiple: true, default: [] },
    secret: { type: 'string', multiple: true, default: [] },
    'shared-listeners-after': { type: 'string', default: String(DEFAULT_SHARED_AFTER) },
    'token-auth-file': { type: 'string' },
    'authorization-mode': { type: 'string', default: 'AlwaysAllow' },
    'anonymous-auth': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  process.stdout.write(`${HELP}\n`);
  process.exit(0);
}

const number = (text: string, name: string): number => {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) {
    process.stderr.write(`kube-sim: --${name} must be a non-negative number\n`);
    process.exit(2);
  }
  return value;
};

const bootProfiles = (() => {
  try {
    return parseBootProfiles(values['boot-profile'].join(','));
  } catch (error) {
    process.stderr.write(`kube-sim: --boot-profile: ${(error as Error).message}\n`);
    return process.exit(2);
  }
})();

const secrets = values.secret.flatMap((spec) => {
  const [namespace, name] = spec.split('/');
  if (!namespace || !name) return [];
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
    { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, type: 'kubernetes.io/tls', data: { 'tls.crt': '', 'tls.key': '' } },
  ];
});
const uniqueObjects = secrets.filter(
  (object, index) =>
    secrets.findIndex(
      (other) => other.kind === object.kind && other.metadata.name === object.metadata.name && other.metadata.namespace === object.metadata.namespace,
    ) === index,
);

if (!['AlwaysAllow', 'RBAC'].includes(values['authorization-mode'])) {
  process.stderr.write('kube-sim: --authorization-mode must be AlwaysAllow or RBAC\n');
  process.exit(2);
}
const rbac = values['authorization-mode'] === 'RBAC';
const anonymousFlag = values['anonymous-auth'];
if (anonymousFlag !== undefined && !['true', 'false'].includes(anonymousFlag)) {
  process.stderr.write('kube-sim: --anonymous-auth must be true or false\n');
  process.exit(2);
}
const tokens = values['token-auth-file'] ? parseTokenFile(readFileSync(values['token-auth-file'], 'utf8')) : [];

const sim = await startKubeSim({
  auth: { tokens, rbac, ...(anonymousFlag === undefined ? {} : { anonymous: anonymousFlag === 'true' }) },
  port: number(values.port, 'port'),
  host: values.host,
  kubeconfigPath: values.kubeconfig,
  seed: number(values.seed, 'seed'),
  sshUsers: Object.fromEntries(values['ssh-user'].map((pair) => [pair.split(':')[0], pair.split(':').slice(1).join(':')])),
  objects: uniqueObjects,
  sharedListenersAfter: number(values['shared-listeners-after'], 'shared-listeners-after'),
  nodes: Math.max(1, Math.floor(number(values.nodes, 'nodes'))),
  faults: {
    imagePullDelayMs: number(values['image-pull-delay'], 'image-pull-delay'),
    imagePullDelays: Object.fromEntries(
      values['image-pull-delay-for'].map((spec) => [
        spec.slice(0, spec.lastIndexOf('=')),
        number(spec.slice(spec.lastIndexOf('=') + 1), 'image-pull-delay-for'),
      ]),
    ),
    podStartDelayMs: number(values['pod-start-delay'], 'pod-start-delay'),
    jobRunDelayMs: number(values['job-run-delay'], 'job-run-delay'),
    namespaceDeleteDelayMs: number(values['namespace-delete-delay'], 'namespace-delete-delay'),
    imagePullFailure: values['image-pull-failure'],
    crash: values.crash,
    initFailure: values['init-failure'],
    stuckNamespaces: values['stuck-namespace'],
    unreachable: values.unreachable,
    booting: values.booting,
    bootDelayMs: number(values['boot-delay'], 'boot-delay'),
    bootProfiles,
    jobFailures: values['job-failure'].map((spec) => ({ pattern: spec.split(':')[0], times: Number(spec.split(':')[1] ?? 1) })),
    errors: values.error.map((spec) => {
      const [verb, resource, code, rate] = spec.split(':');
      return {
        ...(verb && verb !== '*' ? { verb } : {}),
        ...(resource && resource !== '*' ? { resource } : {}),
        code: Number(code ?? 500) as 500,
        rate: Number(rate ?? 1),
      };
    }),
    latencyMs: Object.fromEntries(values.latency.map((spec) => [spec.split(':').slice(0, -1).join(':'), Number(spec.split(':').pop())])),
  },
  log: (message) => process.stderr.write(`kube-sim: ${message}\n`),
});
// Without a kubeconfig to hold it, the admin token is only known from here.
process.stdout.write(`kube-sim listening on ${sim.url}${sim.kubeconfigPath ? ` (kubeconfig ${sim.kubeconfigPath})` : ` (admin token ${sim.token})`}\n`);
let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  void sim.stop().then(() => process.exit(0));
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, stop);
// Started by a supervisor over an IPC channel (antictl up): when it ends, even killed, so does the simulator.
if (process.channel) {
  process.channel.unref();
  process.once('disconnect', stop);
}
