import type { AntidoteConfig } from '@antidote/config';

/**
 * An app was started with no bus credentials and without the development opt-out. One line: the keys
 * (and their variables) that would fix it.
 */
export class NatsCredentialsMissingError extends Error {
  readonly code = 'NATS_CREDENTIALS_MISSING';

  constructor(client: string) {
    super(
      `${client} has no NATS credentials: set nats.user and nats.password (ANTIDOTE_NATS_USER, ANTIDOTE_NATS_PASSWORD) or nats.token (ANTIDOTE_NATS_TOKEN); ` +
        'for development against a nats-server without authorization only, nats.allowAnonymous: true (ANTIDOTE_NATS_ALLOW_ANONYMOUS=true)',
    );
    this.name = 'NatsCredentialsMissingError';
  }
}

/** True when the config names a way to authenticate to NATS: a user and password, a token, or a TLS client certificate. */
export function hasBusCredentials({ user, password, token, tls }: AntidoteConfig['nats']): boolean {
  return Boolean((user && password) || token || (tls?.certFile && tls.keyFile));
}

/**
 * Secure by default: an app starts only with bus credentials. Returns 'anonymous' when it has none but
 * the development opt-out is set (the caller logs that loudly); throws NatsCredentialsMissingError otherwise.
 */
export function requireBusCredentials(config: Pick<AntidoteConfig, 'nats'>, client: string): 'credentials' | 'anonymous' {
  if (hasBusCredentials(config.nats)) return 'credentials';
  if (config.nats.allowAnonymous) return 'anonymous';
  throw new NatsCredentialsMissingError(client);
}
