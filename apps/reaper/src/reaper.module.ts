import { type DynamicModule, Logger, Module } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { AntidoteConfig } from '@antidote/config';
import { DataModule } from '@antidote/data';
import { KubeClient } from '@antidote/kube';
import { KubeModule } from '@antidote/kube-runtime';
import { DatabaseReadiness } from '@antidote/runtime';
import { KubeReaperCluster } from './cluster/kube-reaper.cluster.js';
import { REAPER_CLUSTER } from './cluster/reaper-cluster.port.js';
import { KubeLeaseStore } from './leader/kube-lease.store.js';
import { LeaderElector } from './leader/leader-elector.js';
import { LEASE_STORE, type LeaseStore } from './leader/lease-store.port.js';
import { REAPER_CLOCK, ReaperPass } from './pass/reaper-pass.service.js';
import { ReaperMetrics } from './pass/reaper.metrics.js';
import { ReaperController } from './reaper.controller.js';
import { LEADER_ELECTOR, ReaperLoop } from './reaper-loop.service.js';

/** Scheduled passes while leading (a Kubernetes Lease), dry runs over NATS from any replica. */
@Module({})
export class ReaperModule {
  static forRoot(config: AntidoteConfig): DynamicModule {
    const identity = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
    const logger = new Logger('LeaderElection');
    const electionError = (error: unknown): void =>
      logger.warn(`${identity}: lease step failed (not a lost race): ${error instanceof Error ? error.message : String(error)}`);
    return {
      module: ReaperModule,
      imports: [DataModule.forRoot(config), KubeModule.forRoot(config, { app: 'reaper' })],
      controllers: [ReaperController],
      providers: [
        DatabaseReadiness,
        ReaperMetrics,
        { provide: REAPER_CLOCK, useValue: () => new Date() },
        { provide: REAPER_CLUSTER, useClass: KubeReaperCluster },
        {
          provide: LEASE_STORE,
          inject: [KubeClient],
          useFactory: (kube: KubeClient) =>
            new KubeLeaseStore(kube, config.gc.leaseNamespace ?? config.kubernetes.secretsNamespace, config.gc.leaseName ?? `${config.instanceId}-reaper`),
        },
        {
          provide: LEADER_ELECTOR,
          inject: [LEASE_STORE],
          useFactory: (store: LeaseStore) => new LeaderElector(store, identity, config.gc.leaseDurationSeconds, undefined, electionError),
        },
        ReaperPass,
        ReaperLoop,
      ],
    };
  }
}
