import { parseArgs } from 'node:util';
import { parseBootProfiles } from '../endpoints/boot-profile.js';
import { startSimNodes } from './node-agent.js';

const HELP = `kube-sim nodes — simulated nodes and their kubelet for a real Kubernetes control plane

  kube-sim nodes --kubeconfig <file> [options]

  --kubeconfig <file>        the real apiserver (rights on nodes, leases, pods, pods/status, services, endpoints)
  --count <n>                how many nodes (default 1)          --prefix <name>   node names <prefix>-0… (kube-sim-node)
  --cpu <q> --memory <q> --pods <n>   allocatable of each node (64, 256Gi, 250)
  --kubelet-port <p>         kubelet API port on each node address (10250): the apiserver reads container logs there
  --ssh-user <user:password> accept only this SSH login on endpoints (repeatable; default: any)
  --image-pull-delay <ms>  --pod-start-delay <ms>  --job-run-delay <ms>
  --image-pull-failure <pattern>  --crash <pattern>  --init-failure <pattern>  --unreachable <pattern>
  --job-failure <pattern:times>
  --boot-profile <spec>      how devices boot once Running, per image pattern, as kube-sim's (e.g. 'vqfx*=150s' or 'realistic')
  --keep-nodes               leave the Nodes registered on exit (default: deleted)

Nodes get loopback addresses (127.0.0.0/8) and stay Ready through their Leases in kube-node-lease; pods
bound to them run with real SSH/HTTP/TCP listeners on loopback pod IPs; Services with a loopback ClusterIP
forward to their ready endpoints.`;

const { values } = parseArgs({
  args: process.argv.slice(3),
  options: {
    kubeconfig: { type: 'string' },
    count: { type: 'string', default: '1' },
    prefix: { type: 'string', default: 'kube-sim-node' },
    cpu: { type: 'string', default: '64' },
    memory: { type: 'string', default: '256Gi' },
    pods: { type: 'string', default: '250' },
    'kubelet-port': { type: 'string', default: '10250' },
    'ssh-user': { type: 'string', multiple: true, default: [] },
    'image-pull-delay': { type: 'string', default: '0' },
    'pod-start-delay': { type: 'string', default: '0' },
    'job-run-delay': { type: 'string', default: '0' },
    'image-pull-failure': { type: 'string', multiple: true, default: [] },
    crash: { type: 'string', multiple: true, default: [] },
    'init-failure': { type: 'string', multiple: true, default: [] },
    unreachable: { type: 'string', multiple: true, default: [] },
    'job-failure': { type: 'string', multiple: true, default: [] },
    'boot-profile': { type: 'string', multiple: true, default: [] },
    'keep-nodes': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

const fail = (message: string): never => {
  process.stderr.write(`kube-sim nodes: ${message}\n`);
  process.exit(2);
};
if (values.help) {
  process.stdout.write(`${HELP}\n`);
  process.exit(0);
}
const number = (name: keyof typeof values): number => {
  const value = Number(values[name]);
  return Number.isInteger(value) && value >= 0 ? value : fail(`--${name} must be a non-negative integer`);
};
if (!values.kubeconfig) fail('--kubeconfig <file> is required');
const bootProfiles = (() => {
  try {
    return parseBootProfiles(values['boot-profile'].join(','));
  } catch (error) {
    return fail(`--boot-profile: ${(error as Error).message}`);
  }
})();
if (number('count') < 1) fail('--count must be at least 1');

const nodes = await startSimNodes({
  kubeconfig: values.kubeconfig!,
  count: number('count'),
  prefix: values.prefix,
  capacity: { cpu: values.cpu, memory: values.memory, pods: values.pods },
  kubeletPort: number('kubelet-port'),
  sshUsers: Object.fromEntries(values['ssh-user'].map((pair) => [pair.split(':')[0], pair.split(':').slice(1).join(':')])),
  removeNodesOnStop: !values['keep-nodes'],
  faults: {
    imagePullDelayMs: number('image-pull-delay'),
    podStartDelayMs: number('pod-start-delay'),
    jobRunDelayMs: number('job-run-delay'),
    imagePullFailure: values['image-pull-failure'],
    crash: values.crash,
    initFailure: values['init-failure'],
    unreachable: values.unreachable,
    jobFailures: values['job-failure'].map((spec) => ({ pattern: spec.split(':')[0], times: Number(spec.split(':')[1] ?? 1) })),
    bootProfiles,
  },
  log: (message) => process.stderr.write(`kube-sim nodes: ${message}\n`),
});
process.stdout.write(`kube-sim nodes ready: ${nodes.nodes.map((node) => `${node.name} (${node.address})`).join(', ')}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void nodes.stop().then(() => process.exit(0));
  });
}
