import { describe, expect, it } from 'vitest';
import { kubeSchemaProblems } from '../../test/kube-schema.js';
import { testConfig } from '../../test/lesson-fixture.js';
import { buildPrePullDaemonSet, PRE_PULL_NO_OP, PRE_PULL_SPEC_ANNOTATION, prePullImages, prePullName } from './pre-pull.builder.js';

const config = testConfig();
const images = prePullImages(config, ['vqfx', 'utility', 'utility']);

describe('prePullImages', () => {
  it('names each curriculum image once as endpoint pods do, with the copier and the configurator, sorted', () => {
    expect(images).toEqual(
      [
        ...new Set([
          `${config.imageOrg}/utility:${config.curriculumVersion}`,
          `${config.imageOrg}/vqfx:${config.curriculumVersion}`,
          config.images.copier,
          config.images.configurator,
        ]),
      ].sort(),
    );
  });
});

describe('buildPrePullDaemonSet', () => {
  const set = buildPrePullDaemonSet(config, images, 'platform');
  const pod = set.spec!.template.spec!;

  it('is one DaemonSet per instance, in the given namespace, valid for the API', () => {
    expect(set.metadata).toMatchObject({ name: prePullName(config.instanceId), namespace: 'platform' });
    expect(set.metadata?.name).toBe(`antidote-prepull-${config.instanceId}`);
    expect(set.spec?.selector.matchLabels).toEqual(set.spec?.template.metadata?.labels);
    expect(kubeSchemaProblems(set)).toEqual([]);
  });

  it('pulls each image in an init container that runs the copied no-op, whatever the image holds', () => {
    const [helper, ...pulls] = pod.initContainers!;
    expect(helper).toMatchObject({ image: config.scheduler.prePull.helperImage, command: ['/bin/cp', '/bin/busybox', PRE_PULL_NO_OP] });
    expect(pulls.map((container) => container.image)).toEqual(images);
    for (const container of pulls) {
      expect(container.command).toEqual([PRE_PULL_NO_OP]);
      expect(container.imagePullPolicy).toBe('IfNotPresent');
      expect(container.volumeMounts).toEqual([{ name: 'prepull-bin', mountPath: '/prepull-bin', readOnly: true }]);
    }
    expect(new Set(pod.initContainers!.map((container) => container.name)).size).toBe(pod.initContainers!.length);
    expect(pod.containers).toEqual([expect.objectContaining({ name: 'pause', image: config.scheduler.prePull.pauseImage })]);
    expect(pod.automountServiceAccountToken).toBe(false);
  });

  it('carries a digest of its spec: the same images give the same digest, others another', () => {
    const digest = (list: string[]) => buildPrePullDaemonSet(config, list, 'platform').metadata!.annotations![PRE_PULL_SPEC_ANNOTATION];
    expect(digest(images)).toBe(set.metadata!.annotations![PRE_PULL_SPEC_ANNOTATION]);
    expect(digest([...images, 'antidotelabs/new:latest'])).not.toBe(digest(images));
  });

  it('uses the pull secret when one is configured', () => {
    const withSecret = buildPrePullDaemonSet({ ...config, kubernetes: { ...config.kubernetes, pullCredName: 'regcred' } }, images, 'platform');
    expect(withSecret.spec!.template.spec!.imagePullSecrets).toEqual([{ name: 'regcred' }]);
  });
});
