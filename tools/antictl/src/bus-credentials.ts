import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BusIdentity } from '@antidote/contracts';
import { generateBusCredentials, natsAuthorizationConfig, type BusCredentials, type BusLogin } from '@antidote/messaging';
import { CliError } from './output.js';

/** Where `antictl up` keeps the NATS logins it generated, under its state folder. */
export const busCredentialsFile = (dir: string): string => join(dir, 'nats-credentials.json');

/**
 * Fresh NATS logins for every identity (a new set on each `antictl up`), written readable by this user
 * only, and the nats-server authorization that admits exactly them.
 */
export function writeLocalBusCredentials(dir: string): { credentials: BusCredentials; authorization: string; file: string } {
  const credentials = generateBusCredentials();
  const file = busCredentialsFile(dir);
  writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { credentials, authorization: natsAuthorizationConfig(credentials), file };
}

/** The environment that makes an app log in as itself (its config file is shared by all apps). */
export const busLoginEnv = (login: BusLogin): Record<string, string> => ({ ANTIDOTE_NATS_USER: login.user, ANTIDOTE_NATS_PASSWORD: login.password });

/** One identity's login from a credentials file (`antictl up` writes one; an operator may write their own). */
export function readBusLogin(file: string, identity: BusIdentity): BusLogin {
  let parsed: Partial<Record<BusIdentity, Partial<BusLogin>>>;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as typeof parsed;
  } catch (error) {
    throw new CliError(`cannot read NATS credentials from ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const login = parsed[identity];
  if (typeof login?.user !== 'string' || typeof login.password !== 'string')
    throw new CliError(`${file} holds no "${identity}" login ({ "user": …, "password": … })`);
  return { user: login.user, password: login.password };
}
