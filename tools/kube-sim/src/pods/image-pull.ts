import type { KubeObject } from '../api/object.js';
import { pullDelayOf } from './image-cache.js';
import { containersOf, now, waiting, type PodRuntime } from './pod-lifecycle.js';

/** The distinct images of a pod, init containers first (the order a kubelet needs them). */
const imagesOf = (pod: KubeObject): string[] => [
  ...new Set([...containersOf(pod, 'initContainers'), ...containersOf(pod, 'containers')].map((container) => container.image ?? '').filter(Boolean)),
];

/**
 * Brings a pod's images onto its node, then calls `then`. With no pull delay configured for its images,
 * nothing is recorded and the pod's status is left as it was. Otherwise, as a kubelet: the pod waits
 * Pending with its containers in ContainerCreating (init containers PodInitializing), images are pulled one
 * at a time (kubelet's serialized pulls) with `Pulling` / `Pulled` Events, and a present one gets
 * `Pulled` "already present on machine".
 */
export function pullImages(pod: KubeObject, runtime: PodRuntime, then: () => void): void {
  const node = (pod.spec?.nodeName as string | undefined) ?? '';
  const images = imagesOf(pod);
  if (images.every((image) => pullDelayOf(runtime.faults, image) === 0)) {
    for (const image of images)
      runtime.images.ensure(
        node,
        image,
        0,
        () => undefined,
        () => undefined,
      );
    return then();
  }
  const next = (index: number): void => {
    const image = images[index];
    if (image === undefined) return then();
    if (runtime.images.has(node, image)) {
      runtime.event?.(pod, 'Pulled', `Container image "${image}" already present on machine`);
      return next(index + 1);
    }
    runtime.event?.(pod, 'Pulling', `Pulling image "${image}"`);
    const delay = pullDelayOf(runtime.faults, image);
    runtime.images.ensure(
      node,
      image,
      delay,
      (ms, step) => runtime.later(ms, () => Promise.resolve(step())),
      () => {
        runtime.event?.(pod, 'Pulled', `Successfully pulled image "${image}" in ${delay}ms`);
        next(index + 1);
      },
    );
  };
  // The waiting status is written before any pull can end, so it never lands after Running.
  const waited = images.some((image) => !runtime.images.has(node, image)) ? waitForPulls(pod, runtime) : Promise.resolve();
  void waited.then(
    () => next(0),
    () => next(0),
  );
}

/** Pending with its containers waiting, while images are pulled. */
async function waitForPulls(pod: KubeObject, runtime: PodRuntime): Promise<void> {
  const inits = containersOf(pod, 'initContainers');
  await runtime.setStatus(pod, {
    conditions: [
      { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: now() },
      ...['Initialized', 'ContainersReady', 'Ready'].map((type) => ({
        type,
        status: 'False',
        lastProbeTime: null,
        lastTransitionTime: now(),
        reason: inits.length > 0 && type === 'Initialized' ? 'ContainersNotInitialized' : 'ContainersNotReady',
      })),
    ],
    initContainerStatuses: inits.map((container) => waiting(container, 'PodInitializing', '')),
    containerStatuses: containersOf(pod, 'containers').map((container) => waiting(container, inits.length > 0 ? 'PodInitializing' : 'ContainerCreating', '')),
  });
}
