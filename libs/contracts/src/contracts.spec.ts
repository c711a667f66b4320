import { describe, expect, it } from 'vitest';
import { eventContracts, EventSubjects, requestContracts, RequestSubjects } from './index.js';

describe('contracts', () => {
  it('versions every subject and gives each one a schema', () => {
    for (const subject of [...Object.values(RequestSubjects), ...Object.values(EventSubjects)]) expect(subject).toMatch(/^antidote\.[a-z.-]+\.v\d+$/);
    expect(Object.keys(requestContracts).sort()).toEqual(Object.values(RequestSubjects).sort());
    expect(Object.keys(eventContracts).sort()).toEqual(Object.values(EventSubjects).sort());
  });

  it('accepts a well-formed create request and refuses wrong types, unknown fields and bad ids', () => {
    const create = requestContracts[RequestSubjects.liveLessonCreate].request;
    expect(create.safeParse({ liveLessonId: 'abcdef1234' }).success).toBe(true);
    for (const bad of [
      {},
      { liveLessonId: 42 },
      { liveLessonId: 'abcdef1234', extra: 1 },
      { liveLessonId: '../../etc' },
      { liveLessonId: 'x'.repeat(500) },
      null,
      'text',
    ]) {
      expect(create.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('bounds a stage change and keeps the original status strings', () => {
    const modify = requestContracts[RequestSubjects.liveLessonModify].request;
    expect(modify.safeParse({ liveLessonId: 'abcdef1234', stage: 1 }).success).toBe(true);
    expect(modify.safeParse({ liveLessonId: 'abcdef1234', stage: -1 }).success).toBe(false);
    expect(modify.safeParse({ liveLessonId: 'abcdef1234', stage: 1.5 }).success).toBe(false);
    const event = eventContracts[EventSubjects.liveLessonStatusChanged];
    const base = {
      liveLessonId: 'abcdef1234',
      sessionId: 'session001',
      lessonSlug: 'x',
      error: false,
      stage: 0,
      healthyTests: 0,
      totalTests: 1,
      phaseTimes: {},
      at: new Date().toISOString(),
    };
    for (const status of ['INITIALIZED', 'BOOTING', 'CONFIGURATION', 'READY']) expect(event.safeParse({ ...base, status }).success, status).toBe(true);
    expect(event.safeParse({ ...base, status: 'RUNNING' }).success).toBe(false);
  });
});
