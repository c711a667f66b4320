import { DataErrorCodes } from '@antidote/contracts';
import { DATABASE_KINDS, makeLiveEndpoint, makeNewLiveLesson, testDatabase, type TestDatabase } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logStatements, NotFoundError } from './index.js';

describe.each(DATABASE_KINDS)('live lessons on %s', (kind) => {
  let db: TestDatabase;
  let clock = new Date('2026-01-01T00:00:00Z');
  beforeAll(async () => {
    db = await testDatabase(kind, () => clock);
  });
  afterAll(() => db?.close());

  it('creates, lists, reads and deletes (reference §8.2 #10)', async () => {
    const lessons = db.data.liveLessons;
    await lessons.create(makeNewLiveLesson({ id: '10-abcdef', sessionId: 'abcdef', lessonSlug: 'one' }));
    await lessons.create(makeNewLiveLesson({ id: '11-abcdef', sessionId: 'abcdef', lessonSlug: 'two' }));
    await lessons.create(makeNewLiveLesson({ id: '10-ghijk', sessionId: 'ghijk', currentStage: 1 }));
    await expect(lessons.create(makeNewLiveLesson({ id: '10-ghijk', sessionId: 'other' }))).rejects.toMatchObject({
      code: DataErrorCodes.idTaken,
      message: 'Livelesson 10-ghijk already exists',
    });
    expect(await lessons.list()).toHaveLength(3);
    expect((await lessons.get('10-abcdef')).sessionId).toBe('abcdef');
    await expect(lessons.get('foobar')).rejects.toThrow(new NotFoundError('Unable to find liveLesson foobar'));
    await lessons.updateStatus('10-abcdef', 'READY');
    expect(await lessons.changeStage('10-abcdef', 1, { guideType: 'markdown', guideContents: 'x' })).toBe(true);
    expect((await lessons.get('10-abcdef')).currentStage).toBe(1);
    await expect(lessons.updateTests('nope', 1, 1)).rejects.toThrow("Livelesson nope doesn't exist; cannot update");
    await lessons.delete('11-abcdef');
    await lessons.delete('11-abcdef');
    const rest = await lessons.list();
    expect(rest.map((l) => [l.id, l.sessionId, l.currentStage])).toEqual([
      ['10-abcdef', 'abcdef', 1],
      ['10-ghijk', 'ghijk', 1],
    ]);
    expect(await lessons.idsForSession('abcdef')).toEqual(['10-abcdef']);
    expect(await lessons.idsForSession('nobody')).toEqual([]);
  });

  it('runs concurrent transactional updates of many live lessons without interference', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `conc-${i}`);
    await Promise.all(ids.map((id) => db.data.liveLessons.create(makeNewLiveLesson({ id, sessionId: `cs-${id}`, lessonSlug: 'c' }))));
    await Promise.all(
      ids.map(async (id, i) => {
        await db.data.liveLessons.updateStatus(id, 'BOOTING');
        await (i % 2 ? db.data.liveLessons.markFailed(id, `reason ${i}`) : db.data.liveLessons.updateStatus(id, 'CONFIGURATION'));
      }),
    );
    const lessons = await Promise.all(ids.map((id) => db.data.liveLessons.get(id)));
    expect(lessons.map((l) => [l.error, l.failureReason ?? null])).toEqual(ids.map((_, i) => (i % 2 ? [true, `reason ${i}`] : [false, null])));
    expect(lessons.filter((l) => !l.error).every((l) => l.status === 'CONFIGURATION' && l.phaseTimes.configurationAt)).toBe(true);
  });

  it('touches a session and answers its live lessons with their endpoints in one statement', async () => {
    const lessons = db.data.liveLessons;
    await db.data.liveSessions.create({ id: 'touched', sourceIp: '127.0.0.1', createdAt: new Date('2026-01-01T00:00:00Z') });
    expect(await lessons.touchSession('touched', new Date('2026-01-01T00:00:01Z'))).toEqual([]);
    await lessons.create(makeNewLiveLesson({ id: 'touched-b', sessionId: 'touched', lessonSlug: 'b', createdAt: new Date('2026-01-01T00:00:03Z') }));
    await lessons.create(
      makeNewLiveLesson({
        id: 'touched-a',
        sessionId: 'touched',
        lessonSlug: 'a',
        createdAt: new Date('2026-01-01T00:00:02Z'),
        endpoints: [makeLiveEndpoint()],
      }),
    );
    await lessons.updateStatus('touched-a', 'BOOTING', { hosts: new Map([[makeLiveEndpoint().name, '10.0.0.1']]) });
    const log = logStatements(db.data.dataSource);
    const labs = await lessons.touchSession('touched', new Date('2026-01-01T00:00:09Z'));
    log.stop();
    expect(log.statements).toHaveLength(1);
    expect(labs).toEqual(await lessons.listForSession('touched'));
    expect(labs?.map((lab) => lab.id)).toEqual(['touched-a', 'touched-b']);
    expect(labs?.[0].endpoints[0].host).toBe('10.0.0.1');
    expect((await db.data.liveSessions.get('touched')).lastActiveAt).toEqual(new Date('2026-01-01T00:00:09Z'));
    expect(await lessons.touchSession('no-such-session')).toBeUndefined();
  });

  it('refuses a second live lesson of the same lesson in one session', async () => {
    await db.data.liveLessons.create(makeNewLiveLesson({ id: 'dup-1', sessionId: 'dupsession', lessonSlug: 'x' }));
    await expect(db.data.liveLessons.create(makeNewLiveLesson({ id: 'dup-2', sessionId: 'dupsession', lessonSlug: 'x' }))).rejects.toMatchObject({
      code: DataErrorCodes.duplicate,
    });
    expect(await db.data.liveLessons.find('dup-2')).toBeUndefined();
  });

  it('keeps endpoints in lesson order, with hosts written with BOOTING and the guide endpoint added last', async () => {
    const lessons = db.data.liveLessons;
    await lessons.create(
      makeNewLiveLesson({
        id: 'order',
        sessionId: 'orders',
        endpoints: [makeLiveEndpoint({ name: 'zeta', position: 0 }), makeLiveEndpoint({ name: 'alpha', position: 1 })],
      }),
    );
    const booting = await lessons.updateStatus('order', 'BOOTING', {
      hosts: new Map([
        ['alpha', '10.0.0.2'],
        ['no-such-endpoint', '10.0.0.9'],
      ]),
    });
    expect(booting.status).toBe('BOOTING');
    // Written again (a resumed create), merged into those recorded.
    await lessons.updateStatus('order', 'BOOTING', { hosts: new Map([['zeta', '10.0.0.1']]) });
    await lessons.updateStatus('order', 'BOOTING', { hosts: new Map([['zeta', '10.0.0.3']]) });
    await expect(lessons.updateStatus('no-such-lesson', 'BOOTING', { hosts: new Map([['alpha', '10.0.0.3']]) })).rejects.toThrow(/doesn't exist/);
    await lessons.addEndpoint(
      'order',
      makeLiveEndpoint({ name: 'jupyterlabguide', position: 2, image: 'antidotelabs/jupyter:latest', ports: [8888], presentations: [] }),
    );
    await lessons.addEndpoint('order', makeLiveEndpoint({ name: 'jupyterlabguide', position: 2 }));
    const lesson = await lessons.get('order');
    expect(lesson.endpoints.map((e) => [e.name, e.host])).toEqual([
      ['zeta', '10.0.0.3'],
      ['alpha', '10.0.0.2'],
      ['jupyterlabguide', undefined],
    ]);
    expect(lesson.totalTests).toBe(3);
  });

  it('changes stage only from READY and not failed, atomically', async () => {
    const lessons = db.data.liveLessons;
    await lessons.create(makeNewLiveLesson({ id: 'stage', sessionId: 'stages' }));
    const guide = { guideType: 'markdown' as const, guideContents: 'stage 1 guide' };
    expect(await lessons.changeStage('stage', 1, guide)).toBe(false);
    await lessons.updateStatus('stage', 'READY');
    const results = await Promise.all([lessons.changeStage('stage', 1, guide), lessons.changeStage('stage', 2, guide)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const changed = await lessons.get('stage');
    expect(changed.status).toBe('CONFIGURATION');
    expect(changed.guideContents).toBe('stage 1 guide');
    await expect(lessons.changeStage('missing', 1, guide)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('records phase times, failure reason, configured stage and deletion requests', async () => {
    const lessons = db.data.liveLessons;
    // What create returns is the row as a read finds it.
    expect(await lessons.create(makeNewLiveLesson({ id: 'phases', sessionId: 'phases' }))).toEqual(await lessons.get('phases'));
    const endpointName = (await lessons.get('phases')).endpoints[0].name;
    expect(await lessons.findStateWithEndpoint('phases', endpointName)).toEqual({ ...(await lessons.findState('phases')), hasEndpoint: true });
    expect(await lessons.findStateWithEndpoint('phases', 'no-such-endpoint')).toMatchObject({ id: 'phases', hasEndpoint: false });
    expect(await lessons.findStateWithEndpoint('no-such-lesson', endpointName)).toBeUndefined();
    clock = new Date('2026-01-01T00:00:05Z');
    // What updateStatus returns is the row's state as a fresh read finds it (no second read needed).
    const { endpointUpAt, ...written } = await lessons.updateStatus('phases', 'BOOTING');
    expect(endpointUpAt).toEqual(new Map());
    const {
      endpoints: _endpoints,
      guideType: _t,
      guideContents: _c,
      guideDomain: _d,
      antidoteId: _a,
      createdAt: _cr,
      lastActiveAt: _l,
      ...state
    } = await lessons.get('phases');
    expect(written).toEqual(state);
    expect(written.phaseTimes).toEqual({ initializedAt: '2026-01-01T00:00:00.000Z', bootingAt: '2026-01-01T00:00:05.000Z' });
    clock = new Date('2026-01-01T00:00:09Z');
    expect(await lessons.markFailed('phases', 'pods failed: ErrImagePull')).toMatchObject({
      status: 'BOOTING',
      error: true,
      failureReason: 'pods failed: ErrImagePull',
      updatedAt: clock,
    });
    await expect(lessons.updateStatus('no-such-lesson', 'READY')).rejects.toBeInstanceOf(NotFoundError);
    await expect(lessons.markFailed('no-such-lesson', 'gone')).rejects.toBeInstanceOf(NotFoundError);
    await lessons.setConfiguredStage('phases', 0);
    await expect(lessons.setConfiguredStage('no-such-lesson', 0)).rejects.toBeInstanceOf(NotFoundError);
    await lessons.requestDeletion('phases');
    clock = new Date('2026-01-01T00:01:00Z');
    await lessons.requestDeletion('phases');
    const lesson = await lessons.get('phases');
    expect(lesson).toMatchObject({
      status: 'BOOTING',
      error: true,
      failureReason: 'pods failed: ErrImagePull',
      configuredStage: 0,
      deleteRequestedAt: new Date('2026-01-01T00:00:09Z'),
      phaseTimes: { initializedAt: '2026-01-01T00:00:00.000Z', bootingAt: '2026-01-01T00:00:05.000Z', failedAt: '2026-01-01T00:00:09.000Z' },
    });
    // The narrow read for event checks agrees with the full row on every field it has.
    const { id, sessionId, lessonSlug, status, error, failureReason, currentStage, healthyTests, totalTests, phaseTimes, pool, updatedAt } = lesson;
    const narrow = { id, sessionId, lessonSlug, status, error, failureReason, currentStage, healthyTests, totalTests, phaseTimes, pool, updatedAt };
    expect(await lessons.findState('phases')).toEqual(narrow);
    expect(await lessons.findState('no-such-lesson')).toBeUndefined();
    expect(await lessons.findStates(['phases', 'no-such-lesson'])).toEqual(new Map([['phases', narrow]]));
    await lessons.updateLastActiveTime('phases');
    expect((await lessons.get('phases')).lastActiveAt).toEqual(clock);
    expect(await lessons.count({ error: true })).toBeGreaterThanOrEqual(1);
  });
});
