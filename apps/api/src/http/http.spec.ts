import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeImage, makeLesson, makeLiveEndpoint, makeCollection } from '@antidote/testing';
import { describe, expect, it } from 'vitest';
import { toExpCollection, toExpCurriculum, toExpLesson } from '../lessons/lesson.mapper.js';
import { toExpLiveLesson, toExpLiveSession } from '../live-lessons/live-lesson.mapper.js';
import { ClientIpResolver } from './client-ip.js';
import { RateLimiter } from './rate-limiter.js';

/** The original API's swagger definitions (the contract existing front-ends are written against). */
const swagger = (name: string): { definitions: Record<string, { properties?: Record<string, unknown> }> } =>
  JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'exp-api', `${name}.swagger.json`), 'utf8')) as never;
const propertiesOf = (file: string, definition: string): string[] => Object.keys(swagger(file).definitions[definition].properties ?? {}).sort();

describe('response shapes match the original swagger definitions, property for property', () => {
  const liveLesson = {
    id: 'abc',
    sessionId: 's',
    antidoteId: 'a',
    lessonSlug: 'l',
    currentStage: 0,
    guideType: 'markdown' as const,
    guideContents: '',
    guideDomain: '',
    status: 'READY' as const,
    error: false,
    healthyTests: 1,
    totalTests: 1,
    createdAt: new Date(),
    lastActiveAt: new Date(),
    updatedAt: new Date(),
    phaseTimes: {},
    pool: false,
    endpoints: [{ ...makeLiveEndpoint(), host: '10.0.0.1' }],
  };

  it.each([
    ['livelesson', 'expLiveLesson', () => toExpLiveLesson(liveLesson, true)],
    ['livelesson', 'expLiveEndpoint', () => (toExpLiveLesson(liveLesson, true).LiveEndpoints as Record<string, object>).linux1],
    [
      'livelesson',
      'expLivePresentation',
      () => (toExpLiveLesson(liveLesson, true).LiveEndpoints as Record<string, { LivePresentations: object[] }>).linux1.LivePresentations[0],
    ],
    [
      'livesession',
      'expLiveSession',
      () => toExpLiveSession({ id: 's', sourceIp: '1.1.1.1', persistent: false, createdAt: new Date(), lastActiveAt: new Date() }),
    ],
    ['lesson', 'expLesson', () => toExpLesson(makeLesson({ connections: [{ a: 'x', b: 'y', subnet: '' }], authors: [{ name: 'n', link: 'l' }] }))],
    ['lesson', 'expEndpoint', () => (toExpLesson(makeLesson()).Endpoints as object[])[0]],
    ['lesson', 'expLessonStage', () => (toExpLesson(makeLesson()).Stages as object[])[0]],
    ['collection', 'expCollection', () => toExpCollection(makeCollection(), [makeLesson({ collection: 'valid-collection' })])],
    ['collection', 'expLessonSummary', () => (toExpCollection(makeCollection(), [makeLesson({ collection: 'valid-collection' })]).Lessons as object[])[0]],
    ['curriculum', 'expCurriculumInfo', () => toExpCurriculum(null)],
  ] as const)('%s %s', (file, definition, build) => {
    expect(Object.keys(build()).sort()).toEqual(propertiesOf(file, definition));
  });

  it('leaves Lessons out of a collection without lessons, as the original did (antidote-web then shows "Coming Soon!")', () => {
    expect(toExpCollection(makeCollection(), [makeLesson({ collection: 'another-collection' })])).not.toHaveProperty('Lessons');
  });

  it('keeps image credentials out of the image list shape', () => {
    expect(propertiesOf('image', 'expImage')).toEqual(['Name']);
    expect(makeImage().sshPassword).toBeTruthy();
  });
});

describe('ClientIpResolver', () => {
  const resolver = new ClientIpResolver(['10.0.0.0/8', '::1/128', '192.0.2.5']);
  it.each([
    ['an untrusted peer, header ignored', '203.0.113.1', '198.51.100.1', '203.0.113.1'],
    ['a trusted proxy, first forwarded address', '10.1.2.3', '198.51.100.1, 10.1.2.3', '198.51.100.1'],
    ['a client-written entry left of the real one is not believed', '10.0.0.1', '1.2.3.4, 198.51.100.1', '198.51.100.1'],
    ['a rotating forged entry changes nothing', '10.0.0.1', '5.6.7.8, 198.51.100.1', '198.51.100.1'],
    ['a chain of trusted proxies is walked through', '10.0.0.1', '198.51.100.4, 10.9.9.9, 10.8.8.8', '198.51.100.4'],
    ['repeated headers read as one list', '10.0.0.1', ['1.2.3.4', '198.51.100.5'], '198.51.100.5'],
    ['garbage right of a real client stops the walk at the proxy', '10.0.0.1', '198.51.100.6, evil', '10.0.0.1'],
    ['a trusted IPv6 proxy', '::1', '2001:db8::1', '2001:db8::1'],
    ['an IPv4-mapped trusted peer', '::ffff:10.0.0.9', '198.51.100.2', '198.51.100.2'],
    ['a trusted single address', '192.0.2.5', '198.51.100.3', '198.51.100.3'],
    ['a trusted proxy with a garbage header', '10.0.0.1', 'evil', '10.0.0.1'],
    ['no header', '10.0.0.1', undefined, '10.0.0.1'],
  ] as [string, string, string | string[] | undefined, string][])('%s', (_case, peer, header, expected) => {
    expect(resolver.resolve(peer, header)).toBe(expected);
  });
  it('refuses a bad trusted proxy entry at start', () => {
    expect(() => new ClientIpResolver(['not-a-cidr'])).toThrow('api.trustedProxies');
  });
  it('gives each address the same verdict however many others were asked about in between', () => {
    const asked = Array.from({ length: 3000 }, (_, i) => `198.51.${i >> 8}.${i & 255}`);
    for (const round of [1, 2])
      for (const [i, address] of asked.entries()) {
        expect([round, address, resolver.isTrusted(address)]).toEqual([round, address, false]);
        if (i % 100 === 0)
          expect([resolver.isTrusted('10.200.0.1'), resolver.isTrusted('::ffff:10.0.0.9'), resolver.isTrusted('evil')]).toEqual([true, true, false]);
      }
  });
});

describe('RateLimiter', () => {
  it('allows the rate, refuses past it with a wait, and refills over time', () => {
    let now = 0;
    const limiter = new RateLimiter(3, () => now);
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 0]);
    expect(limiter.take('a')).toBeGreaterThan(0);
    expect(limiter.take('b')).toBe(0);
    now += 20_000;
    expect(limiter.take('a')).toBe(0);
    expect(new RateLimiter(0).take('x')).toBe(0);
  });
});
