import type { AntidoteConfig } from '@antidote/config';
import type { LessonObjectsInput } from './lesson-input.js';

type Resources = AntidoteConfig['pods']['endpointResources'];
/** What a lesson's pods count against its namespace quota: cpu in millicores, memory in bytes. */
export interface Footprint {
  pods: number;
  requestsCpu: number;
  requestsMemory: number;
  limitsCpu: number;
  limitsMemory: number;
}

const SUFFIXES: Record<string, number> = { m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };

/** A Kubernetes quantity (`500m`, `2`, `256Mi`, `1G`) in base units; NaN when it is not one. */
export function quantity(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(text.trim());
  return match ? Number(match[1]) * SUFFIXES[match[2] ?? ''] : Number.NaN;
}

/** One pod's quota usage, as the quota controller counts it: the main container, or the init container when it is larger. */
function podFootprint(main: Resources, init: Resources): Footprint {
  const larger = (key: keyof Resources, scale: number) => Math.round(Math.max(quantity(main[key]), quantity(init[key])) * scale);
  return {
    pods: 1,
    requestsCpu: larger('requestsCpu', 1000),
    requestsMemory: larger('requestsMemory', 1),
    limitsCpu: larger('limitsCpu', 1000),
    limitsMemory: larger('limitsMemory', 1),
  };
}

const times = (footprint: Footprint, count: number): Footprint =>
  Object.fromEntries(Object.entries(footprint).map(([key, value]) => [key, value * count])) as unknown as Footprint;
const plus = (a: Footprint, b: Footprint): Footprint =>
  Object.fromEntries(Object.entries(a).map(([key, value]) => [key, value + b[key as keyof Footprint]])) as unknown as Footprint;

/**
 * The most a live lesson runs at once: every endpoint pod (the jupyter guide included) plus one
 * configuration job pod per configured endpoint (a stage's jobs run together; other stages' jobs are
 * gone before a stage starts, and a failed job pod no longer counts).
 */
export function lessonFootprint(input: Pick<LessonObjectsInput, 'endpoints'>, config: Pick<AntidoteConfig, 'pods'>): Footprint {
  const { endpointResources, configuratorResources, copierResources } = config.pods;
  const configured = input.endpoints.filter((endpoint) => endpoint.configurationType && !endpoint.jupyterGuide).length;
  return plus(
    times(podFootprint(endpointResources, copierResources), input.endpoints.length),
    times(podFootprint(configuratorResources, copierResources), configured),
  );
}
