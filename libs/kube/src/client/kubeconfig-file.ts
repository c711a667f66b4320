import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';

/** TLS settings of a connection (PEM material, read once). */
export interface TlsSettings {
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  /** False only when the config says `insecure-skip-tls-verify`. */
  rejectUnauthorized: boolean;
  servername?: string;
}

/** How the current user of a kubeconfig proves who it is. */
export type KubeconfigCredentials =
  | { kind: 'none' }
  | { kind: 'token'; token: string }
  | { kind: 'token-file'; path: string }
  | { kind: 'basic'; username: string; password: string }
  /** `exec` or `auth-provider`: a plugin runs to get a token (handled by client-node, loaded only then). */
  | { kind: 'plugin' };

export interface KubeconfigSettings {
  server: string;
  tls: TlsSettings;
  credentials: KubeconfigCredentials;
}

/** A `- name: …` entry of a kubeconfig list, its settings under a field named after the list. */
type Named = Record<string, unknown> & { name?: string };

interface ClusterEntry {
  server?: string;
  'certificate-authority'?: string;
  'certificate-authority-data'?: string;
  'insecure-skip-tls-verify'?: boolean;
  'tls-server-name'?: string;
}

interface UserEntry {
  token?: string;
  tokenFile?: string;
  'client-certificate'?: string;
  'client-certificate-data'?: string;
  'client-key'?: string;
  'client-key-data'?: string;
  username?: string;
  password?: string;
  exec?: unknown;
  'auth-provider'?: unknown;
}

interface KubeconfigDocument {
  'current-context'?: string;
  contexts?: Named[];
  clusters?: Named[];
  users?: Named[];
}

function entry<T>(list: Named[] | undefined, name: string | undefined, field: string, what: string): T {
  const found = (list ?? []).find((item) => item.name === name);
  if (!found) throw new Error(`it names ${what} ${JSON.stringify(name)}, which it does not define`);
  return (found[field] ?? {}) as T;
}

/**
 * The current context of a kubeconfig file: its cluster's server and TLS settings and its user's
 * credentials. Relative file paths are relative to the file, as kubectl reads them.
 */
export function readKubeconfig(path: string): KubeconfigSettings {
  const document = (parse(readFileSync(path, 'utf8')) ?? {}) as KubeconfigDocument;
  const contextName = document['current-context'];
  if (!contextName) throw new Error('it names no current context');
  const context = entry<{ cluster?: string; user?: string }>(document.contexts, contextName, 'context', 'context');
  const cluster = entry<ClusterEntry>(document.clusters, context.cluster, 'cluster', 'cluster');
  const user = context.user === undefined ? {} : entry<UserEntry>(document.users, context.user, 'user', 'user');
  if (!cluster.server) throw new Error(`cluster ${JSON.stringify(context.cluster)} has no server`);
  const file = (name: string) => readFileSync(isAbsolute(name) ? name : join(dirname(path), name));
  const material = (name: string | undefined, data: string | undefined) => (data ? Buffer.from(data, 'base64') : name ? file(name) : undefined);
  const ca = material(cluster['certificate-authority'], cluster['certificate-authority-data']);
  const cert = material(user['client-certificate'], user['client-certificate-data']);
  const key = material(user['client-key'], user['client-key-data']);
  return {
    server: cluster.server,
    tls: {
      rejectUnauthorized: cluster['insecure-skip-tls-verify'] !== true,
      ...(ca ? { ca } : {}),
      ...(cert ? { cert } : {}),
      ...(key ? { key } : {}),
      ...(cluster['tls-server-name'] ? { servername: cluster['tls-server-name'] } : {}),
    },
    credentials: credentialsOf(user, (name) => (isAbsolute(name) ? name : join(dirname(path), name))),
  };
}

function credentialsOf(user: UserEntry, resolve: (name: string) => string): KubeconfigCredentials {
  if (user.exec || user['auth-provider']) return { kind: 'plugin' };
  if (user.token) return { kind: 'token', token: user.token };
  if (user.tokenFile) return { kind: 'token-file', path: resolve(user.tokenFile) };
  if (user.username && user.password) return { kind: 'basic', username: user.username, password: user.password };
  return { kind: 'none' };
}
