import { RequestSubjects } from '@antidote/contracts';
import { readCurriculum } from '@antidote/curriculum';
import { type KubeObject, startKubeSim, type KubeSim } from '@antidote/kube-sim';
import { INSTANCE, SAMPLE_CURRICULUM, startTestPlatform, type TestPlatform } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schedulerService } from './scheduler.definition.js';

type Container = { name: string; securityContext?: { privileged?: boolean; allowPrivilegeEscalation?: boolean } };
type PodSpec = { containers: Container[]; initContainers?: Container[]; runtimeClassName?: string };
const containersOf = (pod: KubeObject): Container[] => [...((pod.spec as PodSpec).initContainers ?? []), ...(pod.spec as PodSpec).containers];

/**
 * Defence in depth behind validation: a curriculum already in the database (imported before the operator's
 * allow list, or by a path that skipped it) whose vqfx image asks for `flavor: trusted`. The pods the
 * scheduler creates on kube-sim are privileged only when `pods.trustedImages` allows the image.
 */
describe.each([
  ['nothing allowed (the default)', [], false],
  ['vqfx allowed', ['vqfx'], true],
] as const)('a trusted image in the database, %s', (_case, trustedImages, privileged) => {
  let p: TestPlatform<'scheduler', KubeSim>;

  beforeAll(async () => {
    p = await startTestPlatform('sqlite', { cluster: startKubeSim, services: { scheduler: schedulerService }, overrides: { pods: { trustedImages } } });
    const { curriculum } = await readCurriculum(SAMPLE_CURRICULUM, { tier: 'prod', instanceId: INSTANCE });
    await p.data.curriculum.replaceCurriculum({
      ...curriculum!,
      images: curriculum!.images.map((image) => (image.slug === 'vqfx' ? { ...image, flavor: 'trusted' as const } : image)),
    });
  });
  afterAll(() => p?.stop());

  it(`creates the vqfx pods ${privileged ? 'privileged, on the default runtime' : 'unprivileged, with the sandbox runtime'}; nothing else privileged`, async () => {
    const lesson = await p.newLiveLesson('network-automation');
    expect(await p.bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: lesson.id })).toEqual({ accepted: true });
    const pods = () => p.sim.list('pods', `${INSTANCE}-${lesson.id}`).filter((pod) => !pod.metadata.labels?.configPod);
    await expect
      .poll(
        () =>
          pods()
            .map((pod) => pod.metadata.name)
            .sort(),
        { timeout: 90_000 },
      )
      .toEqual(['linux1', 'vqfx1', 'vqfx2']);
    const vqfx = pods().filter((pod) => pod.metadata.name!.startsWith('vqfx'));
    for (const pod of vqfx) {
      expect((pod.spec as PodSpec).containers[0].securityContext).toMatchObject({ privileged, allowPrivilegeEscalation: privileged });
      expect((pod.spec as PodSpec).runtimeClassName).toBe(privileged ? undefined : 'kata');
    }
    const others = p.sim.list('pods', `${INSTANCE}-${lesson.id}`).filter((pod) => !pod.metadata.name!.startsWith('vqfx'));
    expect(others.flatMap(containersOf).filter((container) => container.securityContext?.privileged)).toEqual([]);
  });
});
