import { readFileSync } from 'node:fs';
import { connect, type NatsConnection, type NodeConnectionOptions } from '@nats-io/transport-node';
import type { AntidoteConfig } from '@antidote/config';
import { inboxPrefixOf } from '@antidote/contracts';
import { NatsAuthenticationError } from './bus.error.js';

/** What a NATS client needs of the configuration (the start-up opt-out `nats.allowAnonymous` is not among it). */
export interface NatsClientConfig {
  natsUrl: AntidoteConfig['natsUrl'];
  nats: Omit<AntidoteConfig['nats'], 'allowAnonymous'>;
}

/**
 * Connection options for every NATS client of a service: credentials and TLS from the config, and
 * reconnect forever (a service outlives a nats-server restart and reports not-ready meanwhile).
 */
export function natsConnectOptions(config: NatsClientConfig, name: string): NodeConnectionOptions {
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
  // Replies come to the user's own inbox, the only one its permissions let it subscribe to.
  if (user) Object.assign(options, { user, pass: password ?? '', inboxPrefix: inboxPrefixOf(user) });
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

/** How a client authenticates, for error messages: the user name at most, never a secret. */
function authMethod({ user, token }: NatsClientConfig['nats']): string {
  if (user) return `user "${user}" with a password`;
  return token ? 'a token' : 'no credentials';
}

/**
 * Connects to NATS; with `waitOnFirstConnect` it keeps trying until the server is there. Refused
 * credentials end the attempt with a NatsAuthenticationError (nats.js gives up on a repeated one).
 */
export async function connectNats(config: NatsClientConfig, name: string): Promise<NatsConnection> {
  const options = natsConnectOptions(config, name);
  try {
    return await connect(options);
  } catch (error) {
    if (error instanceof Error && error.name === 'AuthorizationError')
      throw new NatsAuthenticationError([options.servers ?? []].flat(), name, authMethod(config.nats), error);
    throw error;
  }
}
