import type { AntidoteConfig } from '@antidote/config';
import type { V1Container, V1DaemonSet } from '@kubernetes/client-node';
import { createHash } from 'node:crypto';
import { dnsLabel } from '../naming/dns-name.js';
import { pullSecrets } from './lesson-context.js';

/** Where the helper leaves the no-op binary, mounted read-only into every image's init container. */
export const PRE_PULL_VOLUME = 'prepull-bin';
export const PRE_PULL_NO_OP = '/prepull-bin/true';
/** Annotation: a digest of the DaemonSet's spec, so the scheduler updates it only when it would change. */
export const PRE_PULL_SPEC_ANNOTATION = 'antidote.nrelabs.io/prepull-spec';

/** `antidote-prepull-<instanceId>`: one per instance. */
export const prePullName = (instanceId: string): string => dnsLabel(`antidote-prepull-${instanceId}`);

/** The images a cold lesson start may wait for: each curriculum image (as endpoint pods name it), the copier and the configurator. */
export function prePullImages(config: Pick<AntidoteConfig, 'imageOrg' | 'curriculumVersion' | 'images'>, imageSlugs: readonly string[]): string[] {
  const references = [
    ...imageSlugs.map((slug) => `${config.imageOrg}/${slug}:${config.curriculumVersion}`),
    config.images.copier,
    config.images.configurator,
  ].filter((image): image is string => Boolean(image));
  return [...new Set(references)].sort();
}

const TINY = { requests: { cpu: '1m', memory: '8Mi' }, limits: { cpu: '50m', memory: '32Mi' } };

/**
 * The pre-pull DaemonSet (Z2JH's continuous image puller, made to work for any image): on every node its
 * first init container copies a statically linked busybox into an emptyDir as `true`; then one init
 * container per image runs that copy (`/prepull-bin/true`: exits 0 at once, needing no shell or binary
 * from the image — network OS images have neither `sh` nor `true`), so the kubelet pulls the image and
 * moves on; a pause container keeps the pod, and so the images, on the node. IfNotPresent: a node pulls
 * each image once. A new image set replaces the pods of every node at once (`maxUnavailable: 100%`).
 */
export function buildPrePullDaemonSet(config: AntidoteConfig, images: readonly string[], namespace: string): V1DaemonSet {
  const name = prePullName(config.instanceId);
  const labels = {
    'app.kubernetes.io/name': 'antidote-prepull',
    'app.kubernetes.io/instance': config.instanceId,
    'app.kubernetes.io/managed-by': 'antidote-scheduler',
  };
  const mount = [{ name: PRE_PULL_VOLUME, mountPath: '/prepull-bin', readOnly: true }];
  const pulls: V1Container[] = images.map((image, index) => ({
    name: `pull-${index}`,
    image,
    imagePullPolicy: 'IfNotPresent',
    command: [PRE_PULL_NO_OP],
    volumeMounts: mount,
    resources: TINY,
  }));
  const { prePull } = config.scheduler;
  const spec: V1DaemonSet['spec'] = {
    selector: { matchLabels: labels },
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '100%' } },
    template: {
      metadata: { labels },
      spec: {
        automountServiceAccountToken: false,
        terminationGracePeriodSeconds: 0,
        imagePullSecrets: pullSecrets(config),
        volumes: [{ name: PRE_PULL_VOLUME, emptyDir: {} }],
        initContainers: [
          {
            name: 'no-op',
            image: prePull.helperImage,
            imagePullPolicy: 'IfNotPresent',
            command: ['/bin/cp', '/bin/busybox', PRE_PULL_NO_OP],
            volumeMounts: [{ ...mount[0], readOnly: false }],
            resources: TINY,
          },
          ...pulls,
        ],
        containers: [{ name: 'pause', image: prePull.pauseImage, imagePullPolicy: 'IfNotPresent', resources: TINY }],
      },
    },
  };
  const digest = createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 16);
  return { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name, namespace, labels, annotations: { [PRE_PULL_SPEC_ANNOTATION]: digest } }, spec };
}
