import type { CrdClient } from '@antidote/crd';
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import type { KubeClient } from '../client/kube-client.js';
import { watchUntil } from '../watch/watch-until.js';

/** The `CrdClient` that `ensureNadCrd` of `@antidote/crd` needs, on the client: create, read, and a watch until `done`. */
export function kubeCrdClient(kube: KubeClient): CrdClient {
  return {
    // A 409 reaches ensureNadCrd, which accepts the existing CRD only if it serves our version.
    createCustomResourceDefinition: (crd, signal) => kube.createNew('CustomResourceDefinition', '', crd, signal),
    readCustomResourceDefinition: async (name, signal) => {
      const crd = await kube.read('CustomResourceDefinition', '', name, signal);
      if (!crd) throw new Error(`CustomResourceDefinition ${name} not found`);
      return crd;
    },
    waitForCustomResourceDefinition: (name, done, options) =>
      watchUntil<V1CustomResourceDefinition, V1CustomResourceDefinition>(
        kube.watchSource('CustomResourceDefinition', '', { fieldSelector: `metadata.name=${name}` }),
        (crds) => {
          const crd = crds.get(name);
          try {
            return crd && done(crd) ? { state: 'done', value: crd } : { state: 'waiting' };
          } catch (error) {
            return { state: 'failed', error: error as Error };
          }
        },
        { ...options, logger: kube.logger, what: `CRD ${name}` },
      ),
  };
}
