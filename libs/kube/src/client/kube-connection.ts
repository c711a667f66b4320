import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { KubernetesConfig } from '@antidote/config';
import type { KubeConfig } from '@kubernetes/client-node';
import { readKubeconfig, type KubeconfigCredentials, type TlsSettings } from './kubeconfig-file.js';

/** Where the connection came from (logged at startup). */
export type KubeConnectionSource = 'server' | 'kubeconfig' | 'in-cluster';

export class KubeConnectionError extends Error {
  override readonly name = 'KubeConnectionError';
  readonly code = 'KUBE_CONNECTION_CONFIG';
}

/** Where and how to reach the API server. */
export interface KubeConnection {
  readonly source: KubeConnectionSource;
  /** The API server's URL, without a trailing slash (it may carry a path prefix). */
  readonly server: string;
  /** One keep-alive Agent with the TLS settings: every call and watch shares its connections. */
  readonly agent: http.Agent;
  /** Names the app in the audit log (and kube-sim's request log): which app called, which rules it needs. */
  readonly userAgent?: string;
  /** The Authorization header of the next request, if any. */
  authorization(): string | undefined | Promise<string | undefined>;
}

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
/** Projected service-account tokens rotate; like client-go, read the file again after a minute. */
const TOKEN_REREAD_MS = 60_000;

/**
 * Connects from `config.kubernetes`: an explicit `server` (with `token`, `caFile`,
 * `insecureSkipTlsVerify`) wins, else `kubeconfigPath` (its current context), else the in-cluster
 * service account. Nothing is read from the environment but the in-cluster service address.
 */
export function kubeConnectionFrom(config: KubernetesConfig, userAgent?: string): KubeConnection {
  try {
    if (config.server) {
      const tls = { rejectUnauthorized: !config.insecureSkipTlsVerify, ...(config.caFile ? { ca: readFileSync(config.caFile) } : {}) };
      const token = config.token;
      return connection('server', config.server, tls, userAgent, () => (token ? `Bearer ${token}` : undefined));
    }
    if (config.kubeconfigPath) {
      const settings = readKubeconfig(config.kubeconfigPath);
      return connection('kubeconfig', settings.server, settings.tls, userAgent, authorizationOf(settings.credentials, config.kubeconfigPath));
    }
    if (config.inCluster) {
      const host = process.env.KUBERNETES_SERVICE_HOST;
      const port = process.env.KUBERNETES_SERVICE_PORT;
      if (!host || !port) throw new Error('KUBERNETES_SERVICE_HOST/PORT are not set: not running in a cluster');
      const server = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
      const token = tokenFile(`${SERVICE_ACCOUNT_DIR}/token`);
      return connection(
        'in-cluster',
        server,
        { rejectUnauthorized: true, ca: readFileSync(`${SERVICE_ACCOUNT_DIR}/ca.crt`) },
        userAgent,
        () => `Bearer ${token()}`,
      );
    }
  } catch (error) {
    throw new KubeConnectionError(`Cannot load the Kubernetes connection (${describe(config)}): ${(error as Error).message}`, { cause: error });
  }
  throw new KubeConnectionError('No Kubernetes connection configured: set kubernetes server, a kubeconfig path, or inCluster');
}

function connection(
  source: KubeConnectionSource,
  server: string,
  tls: TlsSettings,
  userAgent: string | undefined,
  authorization: KubeConnection['authorization'],
): KubeConnection {
  const url = new URL(server);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`server ${server} is neither http nor https`);
  const agent = oneServer(url.protocol === 'https:' ? new https.Agent({ keepAlive: true, ...tls }) : new http.Agent({ keepAlive: true }));
  return { source, server: server.replace(/\/+$/, ''), agent, ...(userAgent ? { userAgent } : {}), authorization };
}

/**
 * The Agent of one server with one set of TLS settings. Node names an Agent's pool of connections from
 * some twenty request options — the CA certificate's whole text among them — several times per request;
 * every request of this Agent goes to the same server with the same settings, so the name is made once.
 */
function oneServer<A extends http.Agent>(agent: A): A {
  const nameOf = agent.getName.bind(agent);
  let name: string | undefined;
  agent.getName = (options) => (name ??= nameOf(options));
  return agent;
}

function authorizationOf(credentials: KubeconfigCredentials, kubeconfigPath: string): KubeConnection['authorization'] {
  switch (credentials.kind) {
    case 'none':
      return () => undefined;
    case 'token':
      return () => `Bearer ${credentials.token}`;
    case 'token-file': {
      const token = tokenFile(credentials.path);
      return () => `Bearer ${token()}`;
    }
    case 'basic':
      return () => `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
    case 'plugin':
      return pluginAuthorization(kubeconfigPath);
  }
}

/** A token file's content, read now and again once it is a minute old. */
export function tokenFile(path: string, now: () => number = Date.now): () => string {
  let token = readFileSync(path, 'utf8').trim();
  let readAt = now();
  return () => {
    if (now() - readAt >= TOKEN_REREAD_MS) {
      token = readFileSync(path, 'utf8').trim();
      readAt = now();
    }
    return token;
  };
}

/**
 * `exec` and `auth-provider` users (cloud CLIs, OIDC): client-node runs the plugin and caches its token.
 * It is loaded only for such a kubeconfig, on the first request.
 */
function pluginAuthorization(kubeconfigPath: string): () => Promise<string | undefined> {
  let loading: Promise<KubeConfig> | undefined;
  return async () => {
    loading ??= import('@kubernetes/client-node').then(({ KubeConfig }) => {
      const kubeConfig = new KubeConfig();
      kubeConfig.loadFromFile(kubeconfigPath);
      return kubeConfig;
    });
    const options: https.RequestOptions & { headers: http.OutgoingHttpHeaders } = { headers: {} };
    try {
      await (await loading).applyToHTTPSOptions(options);
    } catch (error) {
      loading = undefined;
      throw error;
    }
    return typeof options.headers.Authorization === 'string' ? options.headers.Authorization : undefined;
  };
}

const describe = (config: KubernetesConfig): string =>
  config.server ? `server ${config.server}` : config.kubeconfigPath ? `kubeconfig ${config.kubeconfigPath}` : 'in-cluster service account';
