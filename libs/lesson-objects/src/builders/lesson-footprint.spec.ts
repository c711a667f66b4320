import { describe, expect, it } from 'vitest';
import { testConfig, triangleLesson } from '../../test/lesson-fixture.js';
import type { EndpointInput } from './lesson-input.js';
import { lessonFootprint, quantity } from './lesson-footprint.js';
import { buildResourceQuota } from './resource-quota.builder.js';

const config = testConfig();
const endpoint = (index: number, configured: boolean): EndpointInput => ({
  name: `e${index}`,
  image: 'antidotelabs/vqfx',
  ports: [22],
  presentations: [],
  configurationType: configured ? 'python' : '',
  configurationFile: configured ? `e${index}.py` : '',
});
const lesson = (endpoints: number, configured: number) =>
  triangleLesson({ endpoints: Array.from({ length: endpoints }, (_, i) => endpoint(i, i < configured)) });
const GI = 2 ** 30;
const MI = 2 ** 20;

describe('quantity', () => {
  it.each([
    ['500m', 0.5],
    ['2', 2],
    ['1.5', 1.5],
    ['256Mi', 256 * MI],
    ['16Gi', 16 * GI],
    ['1G', 1e9],
    ['lots', Number.NaN],
  ])('%s is %d', (text, value) => expect(quantity(text)).toBe(value));
});

// Defaults: endpoint 100m/256Mi requests, 2/2Gi limits; configurator 50m/64Mi, 1/512Mi; copier init 50m/32Mi, 500m/128Mi.
describe('lessonFootprint with the default resources', () => {
  it.each([
    { endpoints: 1, configured: 0, pods: 1, requestsCpu: 100, requestsMemory: 256 * MI, limitsCpu: 2000, limitsMemory: 2 * GI },
    { endpoints: 3, configured: 3, pods: 6, requestsCpu: 450, requestsMemory: 960 * MI, limitsCpu: 9000, limitsMemory: 7.5 * GI },
    { endpoints: 4, configured: 4, pods: 8, requestsCpu: 600, requestsMemory: 1280 * MI, limitsCpu: 12_000, limitsMemory: 10 * GI },
    { endpoints: 10, configured: 2, pods: 12, requestsCpu: 1100, requestsMemory: 2688 * MI, limitsCpu: 22_000, limitsMemory: 21 * GI },
  ])('$endpoints endpoints, $configured configured', ({ endpoints, configured, ...expected }) => {
    expect(lessonFootprint(lesson(endpoints, configured), config)).toEqual(expected);
  });
});

describe('buildResourceQuota', () => {
  it.each([
    // Small lessons keep the configured quota (pods 20, requests 4/8Gi, limits 8/16Gi).
    { endpoints: 1, configured: 1, hard: { pods: '20', 'requests.cpu': '4', 'requests.memory': '8Gi', 'limits.cpu': '8', 'limits.memory': '16Gi' } },
    // 4 endpoints + 4 configuration jobs need 12 cpu of limits: the quota grows to fit them.
    { endpoints: 4, configured: 4, hard: { pods: '20', 'requests.cpu': '4', 'requests.memory': '8Gi', 'limits.cpu': '12000m', 'limits.memory': '16Gi' } },
    {
      endpoints: 10,
      configured: 2,
      hard: { pods: '20', 'requests.cpu': '4', 'requests.memory': '8Gi', 'limits.cpu': '22000m', 'limits.memory': String(21 * GI) },
    },
    {
      endpoints: 15,
      configured: 10,
      hard: { pods: '25', 'requests.cpu': '4', 'requests.memory': '8Gi', 'limits.cpu': '40000m', 'limits.memory': String(35 * GI) },
    },
  ])('$endpoints endpoints, $configured configured fit', ({ endpoints, configured, hard }) => {
    const input = lesson(endpoints, configured);
    const quota = buildResourceQuota(input, config)!;
    expect(quota.spec?.hard).toEqual(hard);
    const needed = lessonFootprint(input, config);
    const got = quota.spec!.hard!;
    expect(Number(got.pods)).toBeGreaterThanOrEqual(needed.pods);
    expect(quantity(got['limits.cpu']) * 1000).toBeGreaterThanOrEqual(needed.limitsCpu);
    expect(quantity(got['limits.memory'])).toBeGreaterThanOrEqual(needed.limitsMemory);
    expect(quantity(got['requests.cpu']) * 1000).toBeGreaterThanOrEqual(needed.requestsCpu);
    expect(quantity(got['requests.memory'])).toBeGreaterThanOrEqual(needed.requestsMemory);
  });
});
