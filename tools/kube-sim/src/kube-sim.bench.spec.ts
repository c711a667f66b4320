import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { banner, sshExec } from '../test/endpoint-clients.js';
import { KubeApi } from './nodes/kube-api.js';

/**
 * Issue 23, "scale past one burst": kube-sim (its own process, as `antictl up` runs it) holding 1,000 and
 * 10,000 lessons' worth of endpoints — per lesson a namespace, three pods (network-automation's shape:
 * two with SSH and NETCONF ports, one with SSH) and a Service each: 8 addresses:ports answering. Figures:
 * its file descriptors and RSS at each size, a sample of endpoints answering, and a `kubectl get pods -A`
 * (the Table form) at that size. Ports no other spec uses (the wildcard socket takes a port on every
 * address of the machine). `npm run bench` (it builds kube-sim's dist first).
 */
const SIZES = (process.env.BENCH_KUBE_SIM_LESSONS ?? '1000,10000').split(',').map(Number);
const SSH = 2222;
const NETCONF = 41830;
const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const TICKS_PER_SECOND = 100;
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

interface Sim {
  process: ChildProcess;
  url: string;
  /** Calls as the admin of the kubeconfig kube-sim wrote (its certificate, its token). */
  api: KubeApi;
}
let running: Sim | undefined;
afterEach(() => void running?.process.kill());

async function startSim(sharedListenersAfter: number): Promise<Sim> {
  const kubeconfig = join(mkdtempSync(join(tmpdir(), 'kube-sim-bench-')), 'kubeconfig');
  const child = spawn(
    process.execPath,
    [join(ROOT, 'tools/kube-sim/bin/kube-sim.js'), '--port', '0', '--kubeconfig', kubeconfig, '--shared-listeners-after', String(sharedListenersAfter)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += String(chunk);
      const match = /listening on (\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`kube-sim exited with ${code}: ${out}`)));
  });
  child.stdout.resume();
  running = { process: child, url, api: KubeApi.fromFile(kubeconfig) };
  await call(running, 'PATCH', '/_sim/faults', { serviceAccountDelayMs: 0 });
  return running;
}

async function call(sim: Sim, method: string, path: string, body?: unknown, accept = 'application/json'): Promise<unknown> {
  const response = await sim.api.call(method, path, body, 'application/json', { Accept: accept });
  if (response.code >= 300) throw new Error(`${method} ${path}: ${response.code} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** kube-sim's open file descriptors, RSS (MiB) and CPU used so far (ms), from /proc. */
function usageOf(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const raw = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const stat = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
  return {
    fds: readdirSync(`/proc/${pid}/fd`).length,
    rssMiB: Math.round(Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]) / 1024),
    cpuMs: ((Number(stat[11]) + Number(stat[12])) * 1000) / TICKS_PER_SECOND,
  };
}

const endpoint = (name: string, ports: number[]) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { app: name } },
  spec: { containers: [{ name: 'main', image: `antidotelabs/${name.replace(/\d+$/, '')}`, ports: ports.map((containerPort) => ({ containerPort })) }] },
});
const LESSON: [string, number[]][] = [
  ['vqfx1', [SSH, NETCONF]],
  ['vqfx2', [SSH, NETCONF]],
  ['linux1', [SSH]],
];
const PER_LESSON = LESSON.reduce((sum, [, ports]) => sum + ports.length + 1, 0);

async function createLesson(sim: Sim, index: number): Promise<void> {
  const namespace = `lesson-${index}`;
  await call(sim, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  for (const [name, ports] of LESSON) {
    await call(sim, 'POST', `/api/v1/namespaces/${namespace}/pods`, endpoint(name, ports));
    await call(sim, 'POST', `/api/v1/namespaces/${namespace}/services`, {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name },
      spec: { selector: { app: name }, ports: [{ port: SSH }] },
    });
  }
}

/** Creates lessons `from`…`to`-1, 32 at a time, then waits until every endpoint answers (kube-sim's count of addresses:ports served). */
async function grow(sim: Sim, from: number, to: number): Promise<void> {
  let next = from;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < to) await createLesson(sim, next++);
    }),
  );
  await expect
    .poll(async () => ((await call(sim, 'GET', '/_sim/stats')) as { listeners: number }).listeners, { timeout: 600_000, interval: 500 })
    .toBe(to * PER_LESSON);
}

type PodList = { items: { metadata: { name: string; namespace: string }; status: { podIP: string } }[] };
type ServiceList = { items: { metadata: { name: string; namespace: string }; spec: { clusterIP: string } }[] };

/** 20 lessons spread over the size: SSH to each pod and Service, the banner of each NETCONF port. */
async function sampleAnswers(sim: Sim, size: number): Promise<{ sampled: number; answered: number }> {
  let sampled = 0;
  let answered = 0;
  for (let i = 0; i < 20; i++) {
    const namespace = `lesson-${Math.floor((i * size) / 20)}`;
    const pods = (await call(sim, 'GET', `/api/v1/namespaces/${namespace}/pods`)) as PodList;
    const services = (await call(sim, 'GET', `/api/v1/namespaces/${namespace}/services`)) as ServiceList;
    for (const pod of pods.items) {
      sampled += 2;
      if ((await sshExec(pod.status.podIP, SSH, 'hostname')).output === `${pod.metadata.name}\n`) answered++;
      if (pod.metadata.name.startsWith('vqfx') ? (await banner(pod.status.podIP, NETCONF)) === `${pod.metadata.name} ready` : true) answered++;
    }
    for (const service of services.items) {
      sampled++;
      if ((await sshExec(service.spec.clusterIP, SSH, 'hostname')).output === `${service.metadata.name}\n`) answered++;
    }
  }
  return { sampled, answered };
}

/** `kubectl get pods -A` (the Table form kubectl asks for) and the plain JSON list: wall time and kube-sim's CPU. */
async function listPods(sim: Sim, pid: number) {
  const timed = async (accept: string) => {
    const [cpuBefore, started] = [usageOf(pid).cpuMs, performance.now()];
    const list = (await call(sim, 'GET', '/api/v1/pods', undefined, accept)) as { items?: unknown[]; rows?: unknown[] };
    return {
      rows: (list.rows ?? list.items ?? []).length,
      ms: Math.round(performance.now() - started),
      kubeSimCpuMs: Math.round(usageOf(pid).cpuMs - cpuBefore),
    };
  };
  return { table: await timed(TABLE), json: await timed('application/json') };
}

it(`holds ${SIZES.join(' and ')} lessons with the file descriptors bounded, endpoints answering`, { timeout: 3_600_000 }, async () => {
  const sim = await startSim(256);
  const pid = sim.process.pid!;
  const idle = usageOf(pid);
  const sizes: Record<string, unknown>[] = [];
  let held = 0;
  for (const size of SIZES) {
    const started = Date.now();
    await grow(sim, held, size);
    held = size;
    const usage = usageOf(pid);
    const stats = (await call(sim, 'GET', '/_sim/stats')) as { listeners: number; endpointSockets: number; pods: number };
    const answers = await sampleAnswers(sim, size);
    const list = await listPods(sim, pid);
    sizes.push({
      lessons: size,
      pods: stats.pods,
      addressesServed: stats.listeners,
      endpointSockets: stats.endpointSockets,
      fds: usage.fds,
      rssMiB: usage.rssMiB,
      growSeconds: Math.round((Date.now() - started) / 1000),
      answers,
      listPods: list,
    });
    expect(answers.answered).toBe(answers.sampled);
    expect(usage.fds).toBeLessThan(1_000);
  }
  running?.process.kill();

  // The same 1,000 lessons with a socket per address and port (the threshold out of reach): what the fds were.
  const perAddress = await startSim(1_000_000);
  const size = Math.min(1_000, SIZES[0]);
  await grow(perAddress, 0, size);
  const before = { lessons: size, ...usageOf(perAddress.process.pid!) };

  const report = {
    name: 'kube-sim-scale',
    at: new Date().toISOString(),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, node: process.version },
    perLesson: PER_LESSON,
    idle,
    shared: sizes,
    perAddress: before,
  };
  mkdirSync(join(ROOT, 'reports', 'bench'), { recursive: true });
  writeFileSync(join(ROOT, 'reports', 'bench', 'kube-sim-scale.json'), `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`kube-sim scale: ${JSON.stringify(report, null, 2)}\n`);
});
