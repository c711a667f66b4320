import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { CustomResourceDefinition } from 'kubernetes-models/apiextensions.k8s.io/v1/CustomResourceDefinition';
import { describe, expect, it } from 'vitest';
import { ensureNadCrd, isCrdEstablished, type CrdClient } from './ensure-nad-crd.js';
import { nadCrdManifest } from './nad-crd.manifest.js';
import { NadCrdError } from './nad-crd.error.js';
import { NAD_CRD_NAME } from './nad.types.js';

class ApiError extends Error {
  constructor(readonly code: number) {
    super(`HTTP ${code}`);
  }
}

const withConditions = (crd: V1CustomResourceDefinition, conditions: Record<string, string>): V1CustomResourceDefinition => ({
  ...crd,
  status: {
    storedVersions: ['v1'],
    acceptedNames: crd.spec.names,
    conditions: Object.entries(conditions).map(([type, status]) => ({ type, status })),
  },
});

/** A client whose CRD store is one optional object; `afterWait` is what the watch would see next. */
function fakeClient(options: { existing?: V1CustomResourceDefinition; createError?: number; afterWait?: V1CustomResourceDefinition }): CrdClient & {
  creates: number;
  waits: number;
} {
  const client = {
    creates: 0,
    waits: 0,
    createCustomResourceDefinition(crd: V1CustomResourceDefinition) {
      client.creates++;
      if (options.createError) return Promise.reject(new ApiError(options.createError));
      if (options.existing) return Promise.reject(new ApiError(409));
      return Promise.resolve(crd);
    },
    readCustomResourceDefinition(name: string) {
      if (!options.existing || name !== NAD_CRD_NAME) return Promise.reject(new ApiError(404));
      return Promise.resolve(options.existing);
    },
    waitForCustomResourceDefinition(_name: string, done: (crd: V1CustomResourceDefinition) => boolean) {
      client.waits++;
      const next = options.afterWait;
      if (!next) return Promise.reject(new Error('timed out after 10 ms'));
      return new Promise<V1CustomResourceDefinition>((resolve, reject) => {
        if (done(next)) resolve(next);
        else reject(new Error('timed out after 10 ms'));
      });
    },
  };
  return client;
}

describe('nadCrdManifest', () => {
  it('is a valid apiextensions.k8s.io/v1 CustomResourceDefinition for k8s.cni.cncf.io/v1', () => {
    const manifest = nadCrdManifest();
    expect(() => new CustomResourceDefinition(manifest as never).validate()).not.toThrow();
    expect(manifest.metadata?.name).toBe('network-attachment-definitions.k8s.cni.cncf.io');
    expect(manifest.spec.scope).toBe('Namespaced');
    expect(manifest.spec.versions.map((v) => [v.name, v.served, v.storage])).toEqual([['v1', true, true]]);
    expect(manifest.spec.names.kind).toBe('NetworkAttachmentDefinition');
  });
});

describe('ensureNadCrd', () => {
  const established = withConditions(nadCrdManifest(), { NamesAccepted: 'True', Established: 'True' });

  it('creates the CRD and waits until it is established', async () => {
    const client = fakeClient({ afterWait: established });
    const crd = await ensureNadCrd(client);
    expect(client.creates).toBe(1);
    expect(client.waits).toBe(1);
    expect(isCrdEstablished(crd)).toBe(true);
  });

  it('accepts an existing CRD that serves v1, without waiting when it is established', async () => {
    const client = fakeClient({ existing: established });
    await expect(ensureNadCrd(client)).resolves.toBe(established);
    expect(client.waits).toBe(0);
  });

  it('refuses an existing CRD that does not serve v1', async () => {
    const old = { ...established, spec: { ...established.spec, versions: [{ name: 'v1beta1', served: true, storage: true }] } };
    await expect(ensureNadCrd(fakeClient({ existing: old }))).rejects.toMatchObject({ code: 'NAD_CRD_INCOMPATIBLE' });
  });

  it('fails on any create error other than AlreadyExists', async () => {
    const error = await ensureNadCrd(fakeClient({ createError: 403 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NadCrdError);
    expect(error).toMatchObject({ code: 'NAD_CRD_CREATE_FAILED' });
    expect((error as NadCrdError).cause).toMatchObject({ code: 403 });
  });

  it('fails fast when the API server rejects the names', async () => {
    const rejected = withConditions(nadCrdManifest(), { NamesAccepted: 'False', Established: 'False' });
    await expect(ensureNadCrd(fakeClient({ afterWait: rejected }))).rejects.toMatchObject({ code: 'NAD_CRD_NAMES_REJECTED' });
  });

  it('reports a CRD that never becomes established', async () => {
    await expect(ensureNadCrd(fakeClient({}))).rejects.toMatchObject({ code: 'NAD_CRD_NOT_ESTABLISHED' });
  });
});
