import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { nadCrdManifest } from './nad-crd.manifest.js';
import { NadCrdError } from './nad-crd.error.js';
import { NAD_CRD_NAME, NAD_VERSION } from './nad.types.js';

/**
 * What `ensureNadCrd` needs from a Kubernetes client (`KubeClient` of `@antidote/kube` has it). Kept
 * narrow so this lib does not depend on the client lib; errors must carry the HTTP status as `code`.
 */
export interface CrdClient {
  createCustomResourceDefinition(crd: V1CustomResourceDefinition, signal?: AbortSignal): Promise<V1CustomResourceDefinition>;
  readCustomResourceDefinition(name: string, signal?: AbortSignal): Promise<V1CustomResourceDefinition>;
  /**
   * Resolves with the CRD as soon as `done(crd)` is true (by a watch); a `done` that throws rejects
   * the wait with that error; rejects once `timeoutMs` has passed.
   */
  waitForCustomResourceDefinition(
    name: string,
    done: (crd: V1CustomResourceDefinition) => boolean,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<V1CustomResourceDefinition>;
}

export interface EnsureNadCrdOptions {
  /** How long to wait for the API server to serve the CRD (`Established`). Default 30 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

const conditionStatus = (crd: V1CustomResourceDefinition, type: string): string | undefined =>
  crd.status?.conditions?.find((condition) => condition.type === type)?.status;

/** The API server serves the CRD's resources once it reports `Established=True`. */
export const isCrdEstablished = (crd: V1CustomResourceDefinition): boolean => conditionStatus(crd, 'Established') === 'True';

const statusCodeOf = (error: unknown): number | undefined =>
  typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : undefined;

function checkNames(crd: V1CustomResourceDefinition): void {
  if (conditionStatus(crd, 'NamesAccepted') !== 'False') return;
  const reason = crd.status?.conditions?.find((condition) => condition.type === 'NamesAccepted')?.message ?? 'names conflict';
  throw new NadCrdError('NAD_CRD_NAMES_REJECTED', `The API server rejected the names of ${NAD_CRD_NAME}: ${reason}`);
}

/**
 * Registers the NetworkAttachmentDefinition CRD at startup and resolves once it is served. An existing
 * CRD (Multus normally installs it) is accepted as it is when it serves `v1` — it is never replaced, so
 * Antidote cannot downgrade Multus' own definition. Any other failure is fatal for the caller.
 */
export async function ensureNadCrd(kube: CrdClient, options: EnsureNadCrdOptions = {}): Promise<V1CustomResourceDefinition> {
  let crd: V1CustomResourceDefinition;
  try {
    crd = await kube.createCustomResourceDefinition(nadCrdManifest(), options.signal);
  } catch (error) {
    if (statusCodeOf(error) !== 409) {
      throw new NadCrdError('NAD_CRD_CREATE_FAILED', `Cannot create ${NAD_CRD_NAME}: ${(error as Error).message}`, { cause: error });
    }
    crd = await kube.readCustomResourceDefinition(NAD_CRD_NAME, options.signal);
    const servesV1 = crd.spec.versions.some((version) => version.name === NAD_VERSION && version.served);
    if (!servesV1) {
      throw new NadCrdError('NAD_CRD_INCOMPATIBLE', `${NAD_CRD_NAME} exists but does not serve version ${NAD_VERSION}`);
    }
  }
  checkNames(crd);
  if (isCrdEstablished(crd)) return crd;
  try {
    return await kube.waitForCustomResourceDefinition(
      NAD_CRD_NAME,
      (current) => {
        checkNames(current);
        return isCrdEstablished(current);
      },
      { timeoutMs: options.timeoutMs ?? 30_000, signal: options.signal },
    );
  } catch (error) {
    if (error instanceof NadCrdError) throw error;
    throw new NadCrdError('NAD_CRD_NOT_ESTABLISHED', `${NAD_CRD_NAME} was not established: ${(error as Error).message}`, { cause: error });
  }
}
