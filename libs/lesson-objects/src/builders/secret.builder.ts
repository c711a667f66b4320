import type { V1Secret } from '@kubernetes/client-node';
import type { LessonObjectsInput } from './lesson-input.js';
import { imageOf, managedLabels, namespaceOf, podNameOf } from './lesson-context.js';

/** Per-namespace Secret holding the configuration credentials the jobs read by `secretKeyRef` (§9 item 27). */
export const CONFIG_CREDENTIALS_SECRET = 'antidote-config-credentials';

/**
 * A copy of `source` (the TLS or pull secret from `secretsNamespace`) for the lesson namespace: same
 * name, type, data. Labelled `antidoteManaged=yes` (the original copied no labels) so that a repeated
 * CREATE adopts it instead of failing.
 */
export function copySecret(source: V1Secret, namespace: string): V1Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: source.metadata?.name, namespace, labels: managedLabels() },
    ...(source.type ? { type: source.type } : {}),
    ...(source.data ? { data: { ...source.data } } : {}),
    ...(source.stringData ? { stringData: { ...source.stringData } } : {}),
  };
}

/** Secret keys of one endpoint's configuration credentials. */
export const credentialKeys = (endpointName: string): { username: string; password: string } => {
  const prefix = podNameOf({ name: endpointName });
  return { username: `${prefix}.username`, password: `${prefix}.password` };
};

/** `configUser`/`configPassword` of the image of every endpoint that has a configuration type. */
export function buildConfigCredentialsSecret(input: LessonObjectsInput): V1Secret {
  const stringData: Record<string, string> = {};
  for (const endpoint of input.endpoints) {
    if (!endpoint.configurationType || endpoint.jupyterGuide) continue;
    const image = imageOf(input, endpoint);
    const keys = credentialKeys(endpoint.name);
    stringData[keys.username] = image.configUser;
    stringData[keys.password] = image.configPassword;
  }
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: CONFIG_CREDENTIALS_SECRET, namespace: namespaceOf(input), labels: managedLabels() },
    type: 'Opaque',
    stringData,
  };
}
