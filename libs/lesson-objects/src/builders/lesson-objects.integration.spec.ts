import { ensureNadCrd } from '@antidote/crd';
import { startKubeSim, type KubeSim } from '@antidote/kube-sim';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig, triangleLesson } from '../../test/lesson-fixture.js';
import { KubeClient, kubeCrdClient, waitForServiceAccount } from '@antidote/kube';
import { OWNER_LABEL } from '../naming/labels.js';
import { buildConfigObjects, buildLessonObjects } from './lesson-objects.js';

/** Every builder's output through the real client against kube-sim: accepted, stored as built, adopted when sent again. */
describe('lesson objects through client-node against kube-sim', () => {
  let sim: KubeSim;
  let kube: KubeClient;
  const config = testConfig();
  const input = triangleLesson();
  const set = buildLessonObjects(input, config);
  const ns = set.namespace.metadata!.name!;

  beforeAll(async () => {
    const kubeconfigPath = join(mkdtempSync(join(tmpdir(), 'kube-objects-')), 'kubeconfig');
    sim = await startKubeSim({ kubeconfigPath });
    kube = KubeClient.fromConfig({ ...config.kubernetes, inCluster: false, kubeconfigPath }, { timeoutMs: 30_000, retries: 2, ownerLabel: OWNER_LABEL });
    await ensureNadCrd(kubeCrdClient(kube));
  });
  afterAll(() => sim?.stop());

  const createAll = async () => {
    await kube.create('Namespace', '', set.namespace);
    await waitForServiceAccount(kube, ns, 'default', { timeoutMs: 60_000 });
    for (const policy of set.networkPolicies) await kube.create('NetworkPolicy', ns, policy);
    await kube.create('ResourceQuota', ns, set.resourceQuota!);
    await kube.create('LimitRange', ns, set.limitRange!);
    for (const nad of set.networkAttachments) await kube.create('NetworkAttachmentDefinition', ns, nad);
    for (const { pod, service, ingresses } of set.endpoints) {
      await kube.create('Pod', ns, pod);
      await kube.create('Service', ns, service);
      for (const ingress of ingresses) await kube.create('Ingress', ns, ingress);
    }
    const { credentials, jobs } = buildConfigObjects(input, 1, config);
    await kube.create('Secret', ns, credentials);
    for (const job of jobs) await kube.create('Job', ns, job);
  };

  it('creates the whole set of a 3-endpoint, 3-link lesson, and adopts it when created again', async () => {
    await createAll();
    const objects = sim.store.contentsOf(ns).map(({ resource, object }) => `${resource.split('/').pop()}/${object.metadata.name}`);
    expect(objects).toEqual(
      expect.arrayContaining([
        'networkpolicies/stoneage',
        'resourcequotas/antidote-quota',
        'limitranges/antidote-limits',
        'network-attachment-definitions/vqfx1-vqfx2-net',
        'pods/vqfx1',
        'services/vqfx3',
        'ingresses/vqfx3-web',
        'secrets/antidote-config-credentials',
        'jobs/config-vqfx1-1',
      ]),
    );
    const creates = sim.counters.count('create', 'pods');
    await createAll();
    expect(sim.counters.count('create', 'pods')).toBe(creates + 3);
    expect(sim.list('pods', ns).filter((pod) => !pod.metadata.labels?.configPod)).toHaveLength(3);
  });

  it('stores pods as built: Multus networks, init container, sysctls, affinity', async () => {
    const stored = await kube.read('Pod', ns, 'vqfx1');
    const built = set.endpoints[0].pod;
    expect(stored?.metadata?.annotations).toEqual(built.metadata?.annotations);
    expect(stored?.spec?.initContainers?.map((c) => c.name)).toEqual(built.spec?.initContainers?.map((c) => c.name));
    expect(stored?.spec?.securityContext?.sysctls).toEqual(built.spec?.securityContext?.sysctls);
    expect(stored?.spec?.affinity).toEqual(built.spec?.affinity);
  });
});
