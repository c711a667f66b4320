import { startKubeSim, type Faults, type KubeSim } from '@antidote/kube-sim';
import { freePort, startPostgres, startTestPlatform, type PostgresProcess, type TestPlatform } from '@antidote/testing';
import { APP_KINDS, replicaOf, type AppKind, type AppReplica, type NotedLine } from './app-processes.js';

export interface ChaosPlatformOptions {
  /** Live lessons not kept alive are expired by the reaper after this many minutes. */
  liveLessonTtlMinutes: number;
}

/** kube-sim as the chaos run had it: pods take 1 s to start, configuration jobs 1 s to run. */
const CLUSTER_DELAYS = { podStartDelayMs: 1000, jobRunDelayMs: 1000 };

/**
 * Production-like on one machine: a PostgreSQL of its own (restartable), a nats-server with the shipped
 * authorization (each app its own login), kube-sim, and two replicas of every app, each a process of
 * its own started from its build with the production defaults (claim leases, re-drive, time-outs), so
 * that a replica can be killed with -9 and started again as the same replica (name, port).
 */
export async function startChaosPlatform(options: ChaosPlatformOptions) {
  const postgres: PostgresProcess = await startPostgres();
  let platform: TestPlatform<never, KubeSim> | undefined;
  const replicas: AppReplica[] = [];
  try {
    platform = await startTestPlatform<never, KubeSim, Faults>('postgres', {
      cluster: startKubeSim,
      services: {},
      databaseUrl: await postgres.createDatabase('chaos'),
      faults: CLUSTER_DELAYS,
      // The production defaults, not the fast test ones: what is measured is what operators run.
      overrides: { scheduler: {}, timeouts: {} },
    });
    const p = platform;
    const noted: NotedLine[] = [];
    const base = {
      ...p.config,
      logging: { level: 'info' },
      liveSessionLimit: 0,
      liveLessonTTL: options.liveLessonTtlMinutes,
      gc: { intervalSeconds: 5 },
    };
    const configOf = async (kind: AppKind, index: number): Promise<Record<string, unknown>> => ({
      ...base,
      ...p.nats.loginAs(kind),
      ...(kind === 'api' ? { httpPort: await freePort(), api: { host: '127.0.0.1', rateLimitPerMinute: 0 } } : {}),
      // No cap on live lessons (the api checks it too): the load, not admission, is what is measured.
      scheduler: { ...p.config.scheduler, maxLiveLessons: 0, ...(kind === 'scheduler' ? { replicaName: `scheduler-${index}` } : {}) },
    });
    for (const kind of APP_KINDS) for (const index of [0, 1]) replicas.push(replicaOf(`${kind}-${index}`, kind, await configOf(kind, index), noted));
    await Promise.all(replicas.map((replica) => replica.start()));
    return {
      platform: p,
      postgres,
      replicas,
      noted,
      of: (kind: AppKind): AppReplica[] => replicas.filter((replica) => replica.kind === kind),
      /** The apis a load balancer sends to: both, always (a killed one refuses, and the learner's request goes to the other). */
      apiUrls: (): string[] => replicas.filter((replica) => replica.kind === 'api').map((replica) => replica.url),
      async stop(): Promise<void> {
        await Promise.all(replicas.map((replica) => replica.stop()));
        await p.stop();
        await postgres.stop();
      },
    };
  } catch (error) {
    await Promise.all(replicas.map((replica) => replica.kill()));
    await platform?.stop();
    await postgres.stop();
    throw error;
  }
}

export type ChaosPlatform = Awaited<ReturnType<typeof startChaosPlatform>>;
