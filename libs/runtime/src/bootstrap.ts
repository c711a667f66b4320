import 'reflect-metadata';
import type { DynamicModule, INestApplication } from '@nestjs/common';
import { BaseExceptionFilter, NestFactory } from '@nestjs/core';
import type { MicroserviceOptions } from '@nestjs/microservices';
import { ConfigError, ConfigModule, loadConfig, type AntidoteConfig, type LoadConfigOptions } from '@antidote/config';
import { migrate } from '@antidote/data';
import {
  BusClient,
  BusExceptionFilter,
  busMicroserviceOptions,
  MessagingModule,
  NatsAuthenticationError,
  NatsConnectionManager,
  NatsCredentialsMissingError,
  requireBusCredentials,
} from '@antidote/messaging';
import { restoreDateTimeFormat } from './date-formats-on-first-use.js';
import { BusHandledMetricsInterceptor, observeBusRequests } from './bus-metrics.js';
import { createLogger, PinoNestLogger, type AppLogger } from './logger.js';
import { MetricsService } from './metrics.service.js';
import { ReadinessRegistry } from './readiness.js';
import { RuntimeModule } from './runtime.module.js';
import { TracingInterceptor } from './tracing.interceptor.js';
import { flushTracing, startTracing } from './tracing.js';

export interface ServiceDefinition {
  /** Service name: logs, metrics label, NATS queue group. */
  name: string;
  /** The app's own module, built from the configuration. */
  module: (config: AntidoteConfig) => DynamicModule;
  /** Port of the HTTP server (ops routes; the api's own routes too). */
  port: (config: AntidoteConfig) => number;
  host?: (config: AntidoteConfig) => string;
  /** The HTTP server's listen backlog (default Node's, 511). */
  backlog?: (config: AntidoteConfig) => number;
  /** Consume NATS requests through a Nest microservice (queue group = name). */
  consumesBus: boolean;
  /** Nest's default JSON and urlencoded body parsers (default true); the api sets false and registers its own. */
  defaultBodyParsers?: boolean;
  /** Extra HTTP set-up (the api: body limits, filters). */
  configureHttp?: (app: INestApplication, config: AntidoteConfig) => void;
}

export interface RunningService {
  app: INestApplication;
  config: AntidoteConfig;
  logger: AppLogger;
  url: string;
  stop(): Promise<void>;
}

/**
 * Boots a service the same way everywhere: validated config (exit 1 naming the bad keys), JSON logs,
 * HTTP ops routes first, then wait for the dependencies to answer, then consume messages. SIGTERM and
 * SIGINT close everything (draining NATS) and exit 0.
 */
export async function startService(definition: ServiceDefinition, options: LoadConfigOptions = {}): Promise<RunningService> {
  restoreDateTimeFormat();
  const { config, warnings } = loadConfig(options);
  const logger = createLogger(definition.name, config.logging.level);
  for (const warning of warnings) logger.warn(warning);
  // Before anything connects: no credentials, no start (unless the development opt-out says so, loudly).
  if (requireBusCredentials(config, definition.name) === 'anonymous') {
    logger.warn(
      { key: 'nats.allowAnonymous' },
      `INSECURE: ${definition.name} connects to NATS without credentials (nats.allowAnonymous / ANTIDOTE_NATS_ALLOW_ANONYMOUS is set); for development only, never in production`,
    );
  }
  await startTracing(config, definition.name);
  const app = await NestFactory.create(
    {
      module: class ServiceRootModule {},
      imports: [
        ConfigModule.forRoot(config),
        RuntimeModule.forRoot(definition.name, logger),
        MessagingModule.forRoot(definition.name),
        definition.module(config),
      ],
    },
    { logger: new PinoNestLogger(logger), abortOnError: false, bodyParser: definition.defaultBodyParsers ?? true },
  );
  if (definition.consumesBus) app.useGlobalFilters(new BusExceptionFilter(new BaseExceptionFilter(app.getHttpAdapter())));
  const metrics = app.get(MetricsService);
  // Only the interceptors that do something here: each one costs every request NestJS's async-resource
  // binding and an rxjs pipeline, and with none an HTTP request goes straight to its handler.
  const interceptors = [
    ...(config.tracing.exporter === 'none' ? [] : [new TracingInterceptor(definition.name)]),
    ...(definition.consumesBus ? [new BusHandledMetricsInterceptor(metrics)] : []),
  ];
  if (interceptors.length > 0) app.useGlobalInterceptors(...interceptors);
  observeBusRequests(app.get(BusClient), metrics);
  definition.configureHttp?.(app, config);
  const readiness = app.get(ReadinessRegistry);
  const nats = app.get(NatsConnectionManager);
  readiness.register('nats', () => nats.isConnected());
  // Nest hands its arguments on to Node's server.listen(port, host, backlog); its types know of no backlog.
  const listen = app.listen.bind(app) as unknown as (port: number, host: string, backlog: number) => Promise<unknown>;
  await listen(definition.port(config), definition.host?.(config) ?? config.ops.host, definition.backlog?.(config) ?? 511);
  const url = await app.getUrl();
  logger.info({ url }, `${definition.name} listening`);
  await dependenciesOrRefusal(readiness, nats, (failing) => logger.info({ failing }, 'waiting for dependencies')).catch(async (error: unknown) => {
    await app.close();
    throw error;
  });
  if (definition.consumesBus) {
    app.connectMicroservice<MicroserviceOptions>(busMicroserviceOptions(config, definition.name), { inheritAppConfig: true });
    await app.startAllMicroservices();
  }
  // /readyz turns 200 only now: a request sent on the strength of it finds the bus consumer subscribed.
  readiness.markStarted();
  logger.info(`${definition.name} ready`);
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      readiness.markDraining();
      logger.info(`${definition.name} shutting down`);
      await app.close();
      await flushTracing().catch((error: unknown) => logger.warn({ error: String(error) }, 'could not flush traces'));
      logger.info(`${definition.name} stopped`);
    })());
  return { app, config, logger, url: url.replace('[::1]', '127.0.0.1'), stop };
}

/**
 * Waits for the dependencies to answer; a NATS that refuses the app's credentials (or their absence)
 * ends the wait at once with the reason (NatsAuthenticationError): waiting would never help.
 */
async function dependenciesOrRefusal(readiness: ReadinessRegistry, nats: NatsConnectionManager, onWait: (failing: string[]) => void): Promise<void> {
  const stop = new AbortController();
  const refused = nats.connected().then(
    () => new Promise<never>(() => undefined),
    (error: unknown) => Promise.reject(error instanceof Error ? error : new Error(String(error))),
  );
  try {
    await Promise.race([readiness.waitForDependencies(onWait, 250, stop.signal), refused]);
  } finally {
    stop.abort();
  }
}

/** `node main.js migrate`: apply the database migrations and exit (the deploy manifests' migration Job). */
async function migrateOnly(): Promise<void> {
  const { config } = loadConfig();
  const applied = await migrate(config);
  process.stdout.write(`${applied.length > 0 ? `applied: ${applied.join(', ')}` : 'database schema up to date'}\n`);
}

/**
 * `main.ts` of every app: start, stop cleanly on SIGTERM/SIGINT (exit 0), exit 1 on a config or
 * start-up error. With the argument `migrate` it only migrates the database.
 */
export function runService(definition: ServiceDefinition): void {
  if (process.argv[2] === 'migrate') {
    migrateOnly().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`migration failed: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
    return;
  }
  let service: RunningService | undefined;
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    // Before the service is up nothing has been consumed, so there is nothing to hand back.
    if (!service) process.exit(0);
    service
      .stop()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        service?.logger.error({ error: String(error) }, 'shutdown failed');
        process.exit(1);
      });
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, stop);
  endWithSupervisor(stop);
  startService(definition)
    .then((started) => {
      service = started;
    })
    .catch((error: unknown) => {
      if (error instanceof ConfigError || error instanceof NatsAuthenticationError || error instanceof NatsCredentialsMissingError)
        process.stderr.write(`${error.message}\n`);
      else process.stderr.write(`${definition.name} failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    });
}

/**
 * Started by a supervisor over an IPC channel (`antictl up`), the process stops when that channel
 * closes: the supervisor has ended, perhaps killed with no time to stop what it started. The channel
 * does not keep the process alive by itself.
 */
function endWithSupervisor(stop: () => void): void {
  if (!process.channel) return;
  process.channel.unref();
  process.once('disconnect', stop);
}
