import { readFileSync } from 'node:fs';
import { connect, type NatsConnection, type NodeConnectionOptions } from '@nats-io/transport-node';
import type { AntidoteConfig } from '@antidote/config';

/**
 * Connection options for every NATS client of a service: credentials and TLS from the config, and
 * reconnect forever (a service outlives a nats-server restart and reports not-ready meanwhile).
 */
export function natsConnectOptions(config: Pick<AntidoteConfig, 'natsUrl' | 'nats'>, name: string): NodeConnectionOptions {
  const { user, password, token, tls } = config.nats;
  const options: NodeConnectionOptions = {
    servers: config.natsUrl.split(',').map((server) => server.trim()),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    reconnectJitter: 250,
    waitOnFirstConnect: true,
    pingInterval: 10_000,
  };
  if (user) Object.assign(options, { user, pass: password ?? '' });
  if (token) options.token = token;
  if (tls && (tls.caFile || tls.certFile)) {
    options.tls = {
      ...(tls.caFile ? { ca: readFileSync(tls.caFile, 'utf8') } : {}),
      ...(tls.certFile ? { cert: readFileSync(tls.certFile, 'utf8') } : {}),
      ...(tls.keyFile ? { key: readFileSync(tls.keyFile, 'utf8') } : {}),
    };
  }
  return options;
}

/** Connects to NATS; with `waitOnFirstConnect` it keeps trying until the server is there. */
export function connectNats(config: Pick<AntidoteConfig, 'natsUrl' | 'nats'>, name: string): Promise<NatsConnection> {
  return connect(natsConnectOptions(config, name));
}
