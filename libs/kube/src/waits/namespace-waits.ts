import type { V1Namespace, V1ServiceAccount } from '@kubernetes/client-node';
import type { KubeClient } from '../client/kube-client.js';
import type { WaitVerdict } from '../watch/watch-until.js';
import { waitOn, type CachedWaitOptions } from './wait-on.js';

/**
 * Resolves once the ServiceAccount exists (a subscription to `informer` when given, else a watch; no
 * polling). Admission refuses a pod (403) until its namespace's ServiceAccount exists, and a controller
 * makes the `default` one just after the namespace: pods are created once this resolves.
 */
export function waitForServiceAccount(kube: KubeClient, namespace: string, name: string, options: CachedWaitOptions<V1ServiceAccount>): Promise<void> {
  return waitOn(
    kube,
    { kind: 'ServiceAccount', scope: namespace, query: { fieldSelector: `metadata.name=${name}` }, what: `service account ${namespace}/${name}` },
    (accounts): WaitVerdict<void> => (accounts.has(name) ? { state: 'done', value: undefined } : { state: 'waiting', progress: 'not created yet' }),
    options,
  );
}

/** Resolves once the namespace no longer exists. */
export function waitForNamespaceGone(kube: KubeClient, name: string, options: CachedWaitOptions<V1Namespace>): Promise<void> {
  return waitOn<'Namespace', void>(
    kube,
    { kind: 'Namespace', scope: name, query: { fieldSelector: `metadata.name=${name}` }, what: `namespace ${name} to be gone` },
    (namespaces) => {
      const namespace = namespaces.get(name);
      return namespace ? { state: 'waiting', progress: namespace.status?.phase ?? 'Active' } : { state: 'done', value: undefined };
    },
    options,
  );
}
