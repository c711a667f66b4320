import type { KubernetesConfig } from '@antidote/config';
import { KubeConfig, type RequestContext } from '@kubernetes/client-node';

/** Where the connection came from (logged at startup). */
export type KubeConnectionSource = 'server' | 'kubeconfig' | 'in-cluster';

export class KubeConnectionError extends Error {
  override readonly name = 'KubeConnectionError';
  readonly code = 'KUBE_CONNECTION_CONFIG';
}

type Dispatcher = NonNullable<ReturnType<RequestContext['getDispatcher']>>;

/**
 * A KubeConfig that names the app in the User-Agent of every call and watch, so the API server's audit
 * log (and kube-sim's request log) tells which app made it — and which ServiceAccount's rules it needs.
 *
 * It also keeps its connections: client-node 1.x builds a new undici Agent for every request whenever the
 * cluster has TLS settings (a CA, a client certificate, or verification off), so every call opened a new
 * TCP connection and TLS handshake. Here the first Agent serves every later call and watch (its pool keeps
 * connections alive). The settings come from the loaded config, which does not change after loading;
 * tokens travel in headers, set per request as before.
 */
class AppKubeConfig extends KubeConfig {
  private dispatcher?: Dispatcher;

  constructor(private readonly userAgent: string | undefined) {
    super();
  }

  override async applySecurityAuthentication(context: RequestContext): Promise<void> {
    await super.applySecurityAuthentication(context);
    const fresh = context.getDispatcher();
    // A fresh Agent that is never used holds no connection and no timer: it is simply dropped.
    if (fresh) context.setDispatcher((this.dispatcher ??= fresh));
    if (this.userAgent) context.setHeaderParam('User-Agent', this.userAgent);
  }
}

/**
 * Builds the client-node `KubeConfig` from `config.kubernetes`: an explicit `server` (with `token`,
 * `caFile`, `insecureSkipTlsVerify`) wins, else `kubeconfigPath`, else the in-cluster service account.
 * Nothing is read from the environment here (`loadFromDefault` would read `KUBECONFIG`). `userAgent`
 * names the app in every request (e.g. `antidote-scheduler`).
 */
export function kubeConfigFrom(config: KubernetesConfig, userAgent?: string): { kubeConfig: KubeConfig; source: KubeConnectionSource } {
  const kubeConfig = new AppKubeConfig(userAgent);
  try {
    if (config.server) {
      const http = config.server.startsWith('http://');
      kubeConfig.loadFromOptions({
        clusters: [
          {
            name: 'antidote',
            server: config.server.replace(/\/+$/, ''),
            // client-node refuses plain http unless TLS verification is off; there is no TLS to verify.
            skipTLSVerify: config.insecureSkipTlsVerify || http,
            ...(config.caFile ? { caFile: config.caFile } : {}),
          },
        ],
        users: [{ name: 'antidote', ...(config.token ? { token: config.token } : {}) }],
        contexts: [{ name: 'antidote', cluster: 'antidote', user: 'antidote' }],
        currentContext: 'antidote',
      });
      return { kubeConfig, source: 'server' };
    }
    if (config.kubeconfigPath) {
      kubeConfig.loadFromFile(config.kubeconfigPath);
      if (!kubeConfig.getCurrentCluster()) throw new Error('it names no current cluster');
      return { kubeConfig, source: 'kubeconfig' };
    }
    if (config.inCluster) {
      kubeConfig.loadFromCluster();
      if (kubeConfig.getCurrentCluster()?.server.includes('undefined')) throw new Error('KUBERNETES_SERVICE_HOST/PORT are not set: not running in a cluster');
      return { kubeConfig, source: 'in-cluster' };
    }
  } catch (error) {
    throw new KubeConnectionError(`Cannot load the Kubernetes connection (${describe(config)}): ${(error as Error).message}`, { cause: error });
  }
  throw new KubeConnectionError('No Kubernetes connection configured: set kubernetes server, a kubeconfig path, or inCluster');
}

const describe = (config: KubernetesConfig): string =>
  config.server ? `server ${config.server}` : config.kubeconfigPath ? `kubeconfig ${config.kubeconfigPath}` : 'in-cluster service account';
