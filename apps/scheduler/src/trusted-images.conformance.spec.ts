import { RequestSubjects } from '@antidote/contracts';
import { readCurriculum } from '@antidote/curriculum';
import { conformanceCluster, INSTANCE, SAMPLE_CURRICULUM, startClusterPlatform, type ClusterTestPlatform } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schedulerService } from './scheduler.definition.js';

type Container = { securityContext?: { privileged?: boolean } };
type PodSpec = { containers: Container[]; initContainers?: Container[]; runtimeClassName?: string };

/**
 * On a real control plane (which admits privileged pods): a curriculum already in the database whose vqfx
 * image asks for `flavor: trusted`, with the default config (no image allowed to). The API server stores
 * the vqfx pods unprivileged, with the sandbox RuntimeClass.
 */
describe.skipIf(!conformanceCluster())('a trusted image the operator has not allowed, on a real control plane', () => {
  let p: ClusterTestPlatform<'scheduler'>;

  beforeAll(async () => {
    p = await startClusterPlatform({ services: { scheduler: schedulerService } });
    const { curriculum } = await readCurriculum(SAMPLE_CURRICULUM, { tier: 'prod', instanceId: INSTANCE });
    await p.data.curriculum.replaceCurriculum({
      ...curriculum!,
      images: curriculum!.images.map((image) => (image.slug === 'vqfx' ? { ...image, flavor: 'trusted' as const } : image)),
    });
  });
  afterAll(() => p?.stop());

  it('runs its pods unprivileged with the sandbox runtime; no pod of the lesson is privileged', async () => {
    const lesson = await p.newLiveLesson('network-automation');
    expect(await p.bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: lesson.id })).toEqual({ accepted: true });
    const namespace = `${INSTANCE}-${lesson.id}`;
    const vqfx = async () => (await p.list('/api/v1', 'pods', namespace)).filter((pod) => pod.metadata.name?.startsWith('vqfx'));
    await expect.poll(async () => (await vqfx()).length, { timeout: 90_000, interval: 200 }).toBe(2);
    for (const pod of await vqfx()) {
      expect((pod.spec as PodSpec).runtimeClassName).toBe('kata');
      expect((pod.spec as PodSpec).containers[0].securityContext).toMatchObject({ privileged: false, allowPrivilegeEscalation: false });
    }
    const containers = (await p.list('/api/v1', 'pods', namespace)).flatMap((pod) => [
      ...((pod.spec as PodSpec).initContainers ?? []),
      ...(pod.spec as PodSpec).containers,
    ]);
    expect(containers.filter((container) => container.securityContext?.privileged)).toEqual([]);
  });
});
