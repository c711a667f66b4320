import {
  type DynamicModule,
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import type { AntidoteConfig } from '@antidote/config';
import { ensureNadCrd } from '@antidote/crd';
import { APP_LOGGER, MetricsService, ReadinessRegistry, type AppLogger } from '@antidote/runtime';
import { setTimeout as sleep } from 'node:timers/promises';
import { KubeClient, kubeCrdClient } from '@antidote/kube';
import { OWNER_LABEL } from '@antidote/lesson-objects';

export interface KubeModuleOptions {
  /** The app, named in the User-Agent of its Kubernetes calls (`antidote-<app>`), as its ServiceAccount is. */
  app: string;
  /** Register the NetworkAttachmentDefinition CRD before reporting ready (the scheduler). */
  ensureNadCrd?: boolean;
  /** Bound on Kubernetes writes in flight at once (the scheduler's `maxConcurrentOperations`); unbounded when unset. */
  maxConcurrentWrites?: number;
}

const KUBE_OPTIONS = Symbol.for('antidote.kube.options');
const RETRY_MS = 2000;

/**
 * Readiness `kubernetes`: the API answers (and the NAD CRD is served, when asked). Checked in the
 * background until it holds, so /readyz stays cheap and the service takes no work before it holds.
 */
@Injectable()
class KubeReadiness implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Kubernetes');
  private ready = false;
  private readonly stopping = new AbortController();

  constructor(
    @Inject(KubeClient) private readonly kube: KubeClient,
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
    @Inject(KUBE_OPTIONS) private readonly options: KubeModuleOptions,
  ) {}

  onModuleInit(): void {
    this.readiness.register('kubernetes', () => this.ready);
  }

  onApplicationBootstrap(): void {
    void this.connect();
  }

  onApplicationShutdown(): void {
    this.stopping.abort();
  }

  private async connect(): Promise<void> {
    const signal = this.stopping.signal;
    for (let attempt = 1; !signal.aborted; attempt++) {
      try {
        await this.kube.list('Namespace', '', { limit: 1 }, signal);
        if (this.options.ensureNadCrd) await ensureNadCrd(kubeCrdClient(this.kube), { signal });
        this.ready = true;
        this.logger.log(`Kubernetes API reachable${this.options.ensureNadCrd ? ', NetworkAttachmentDefinition CRD served' : ''}`);
        return;
      } catch (error) {
        if (signal.aborted) return;
        if (attempt === 1 || attempt % 15 === 0)
          this.logger.warn(`Kubernetes not ready yet (attempt ${attempt}): ${error instanceof Error ? error.message : String(error)}`);
        await sleep(RETRY_MS, undefined, { signal }).catch(() => undefined);
      }
    }
  }
}

/** The KubeClient of a service, from `config.kubernetes`, with call metrics and the `kubernetes` readiness check. */
@Global()
@Module({})
export class KubeModule {
  static forRoot(config: AntidoteConfig, options: KubeModuleOptions): DynamicModule {
    return {
      module: KubeModule,
      providers: [
        { provide: KUBE_OPTIONS, useValue: options },
        {
          provide: KubeClient,
          inject: [MetricsService, APP_LOGGER],
          useFactory: (metrics: MetricsService, logger: AppLogger) => {
            const calls = metrics.counter({
              name: 'antidote_kube_api_calls_total',
              help: 'Kubernetes API calls (every attempt)',
              labelNames: ['verb', 'resource', 'code'],
            });
            return KubeClient.fromConfig(config.kubernetes, {
              timeoutMs: config.timeouts.kubeRequestSeconds * 1000,
              retries: config.scheduler.kubeRetries,
              retryForMs: config.scheduler.kubeRetrySeconds * 1000,
              pageSize: config.gc.listPageSize,
              ownerLabel: OWNER_LABEL,
              ...(options.maxConcurrentWrites ? { maxConcurrentWrites: options.maxConcurrentWrites } : {}),
              userAgent: `antidote-${options.app}`,
              logger: logger.child({ component: 'kube' }),
              onCall: (event) => calls.inc({ verb: event.verb, resource: event.resource, code: String(event.code) }),
            });
          },
        },
        KubeReadiness,
      ],
      exports: [KubeClient],
    };
  }
}
