import type { KubernetesConfig } from '@antidote/config';
import { HttpStatusError, KubeHttp, kubeConnectionFrom, type KubeRequest } from '@antidote/kube';
import type { KubeRest, KubeRestReply } from './cluster.port.js';

const bodyOf = (text: string): KubeRestReply['body'] => (/^[[{]/.test(text) ? (JSON.parse(text) as KubeRestReply['body']) : { metadata: {}, message: text });

/** `KubeRest` on the platform's own HTTP client, with the credentials of a kubeconfig (its current context). */
export function kubeRest(kubeconfigPath: string, userAgent = 'antidote-tests'): KubeRest {
  const config: KubernetesConfig = { inCluster: false, kubeconfigPath, insecureSkipTlsVerify: false, secretsNamespace: '', tlsCertName: '', pullCredName: '' };
  const http = new KubeHttp(kubeConnectionFrom(config, userAgent));
  const call = async (method: string, path: string, body?: unknown, contentType?: string): Promise<KubeRestReply> => {
    try {
      const reply = await http.send({
        method: method as KubeRequest['method'],
        path,
        ...(body === undefined ? {} : { body }),
        ...(contentType ? { contentType } : {}),
      });
      return { code: reply.status, body: bodyOf(reply.text) };
    } catch (error) {
      if (error instanceof HttpStatusError) return { code: error.statusCode, body: bodyOf(error.body) };
      throw error;
    }
  };
  return {
    call,
    async must(method, path, body, allowed = [], contentType) {
      const reply = await call(method, path, body, contentType);
      if ((reply.code < 200 || reply.code > 299) && !allowed.includes(reply.code))
        throw new Error(`${method} ${path}: ${reply.code} ${reply.body.message ?? ''}`);
      return reply;
    },
  };
}
