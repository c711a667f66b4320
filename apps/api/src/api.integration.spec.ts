import { DATABASE_KINDS } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiFixture } from '../test/api-fixture.js';
import { shapeProblems } from '../test/swagger-shape.js';

describe.each(DATABASE_KINDS)('api on %s', (kind) => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await startApi(kind);
  });
  afterAll(() => api?.stop());

  const newSession = async (): Promise<string> => {
    const response = await api.call('POST', '/exp/livesession', {});
    expect(response.status).toBe(200);
    return (response.body as { ID: string }).ID;
  };

  it('creates a session, then a live lesson the scheduler is asked to build, in the original shapes', async () => {
    const session = await api.call('POST', '/exp/livesession', {});
    expect(session.body).toEqual({ ID: expect.stringMatching(/^[a-z0-9]{10}$/), SourceIP: '127.0.0.1', Persistent: false });
    const sessionId = (session.body as { ID: string }).ID;
    const created = await api.call('POST', '/exp/livelesson', { lessonSlug: 'network-automation', sessionId, lessonStage: 0 });
    expect(created.status).toBe(200);
    const { id } = created.body as { id: string };
    expect(id).toMatch(/^[a-z0-9]{10}$/);
    expect(api.received['antidote.livelesson.create.v1']).toContainEqual({ liveLessonId: id });
    const lesson = (await api.call('GET', `/exp/livelesson/${id}`)).body as Record<string, unknown>;
    // The session is never given to whoever holds the live lesson id: blanked, the original's shape kept.
    expect(lesson.SessionID).toBe('');
    expect(JSON.stringify(lesson)).not.toContain(sessionId);
    expect(
      shapeProblems('livelesson', 'expLiveLesson', lesson, ['FailureReason', 'PhaseTimes', 'EstimatedReadyAt', 'EstimatedSecondsLeft', 'QueuePosition']),
    ).toEqual([]);
    // An operator (the admin token; antictl uses it) still reads it; a wrong token does not.
    const asOperator = { SessionID: sessionId, LiveEndpoints: { linux1: { SSHUser: 'antidote', SSHPassword: 'antidotepassword' } } };
    expect((await api.call('GET', `/exp/livelesson/${id}`, undefined, { authorization: 'Bearer secret-admin-token' })).body).toMatchObject(asOperator);
    expect((await api.call('GET', `/exp/livelesson/${id}`, undefined, { authorization: 'Bearer wrong-token' })).body).toMatchObject({ SessionID: '' });
    expect(lesson).toMatchObject({
      ID: id,
      AntidoteID: 'apitest',
      LessonSlug: 'network-automation',
      Status: 'INITIALIZED',
      Error: false,
      CurrentStage: 0,
      GuideType: 'markdown',
      TotalTests: 3,
    });
    // Public hostnames carry a random token of their own, never the live lesson id (which unlocks the device logins).
    const token = /^apitest-([a-z0-9]{16})-jupyterlabguide-web\.localhost$/.exec(lesson.GuideDomain as string)?.[1];
    expect(token).toBeDefined();
    expect(lesson.GuideDomain).not.toContain(id);
    const endpoints = lesson.LiveEndpoints as Record<
      string,
      { Ports: number[]; LivePresentations: { HepDomain: string }[]; SSHUser: string; SSHPassword: string }
    >;
    expect(Object.keys(endpoints)).toEqual(['vqfx1', 'vqfx2', 'linux1']);
    expect(endpoints.vqfx1.Ports).toEqual([22, 830]);
    expect(endpoints.vqfx1.LivePresentations[0].HepDomain).toBe(`apitest-${token}-vqfx1-cli.localhost`);
    // Device logins are an operator's: whoever holds the lab id reads the user only (api.exposeDevicePasswords is off).
    expect(endpoints.linux1).toMatchObject({ SSHUser: 'antidote', SSHPassword: '' });
  });

  it('tells when a start is expected READY, beside the original fields: a time, and the seconds left at the answer', async () => {
    const { id } = (await api.call('POST', '/exp/livelesson', { lessonSlug: 'linux-basics', sessionId: await newSession(), lessonStage: 0 })).body as {
      id: string;
    };
    expect((await api.call('GET', `/exp/livelesson/${id}`)).body).toMatchObject({ EstimatedReadyAt: '', EstimatedSecondsLeft: 0 });
    const expected = new Date(Date.now() + 120_000);
    await api.data.liveLessons.updateStatus(id, 'BOOTING', { estimatedReadyAt: expected });
    const booting = (await api.call('GET', `/exp/livelesson/${id}`)).body as { EstimatedReadyAt: string; EstimatedSecondsLeft: number };
    expect(booting.EstimatedReadyAt).toBe(expected.toISOString());
    expect(booting.EstimatedSecondsLeft).toBeGreaterThan(0);
    expect(booting.EstimatedSecondsLeft).toBeLessThanOrEqual(120);
    await api.data.liveLessons.updateStatus(id, 'READY');
    expect((await api.call('GET', `/exp/livelesson/${id}`)).body).toMatchObject({ EstimatedReadyAt: expected.toISOString(), EstimatedSecondsLeft: 0 });
  });

  it('keeps a live lesson alive at the same stage, refuses a stage change until READY, then changes it', async () => {
    const sessionId = await newSession();
    const request = (stage: number) => api.call('POST', '/exp/livelesson', { lessonSlug: 'linux-basics', sessionId, lessonStage: stage });
    const { id } = (await request(0)).body as { id: string };
    const before = (await api.data.liveLessons.get(id)).lastActiveAt;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(((await request(0)).body as { id: string }).id).toBe(id);
    expect((await api.data.liveLessons.get(id)).lastActiveAt.getTime()).toBeGreaterThan(before.getTime());
    const busy = await request(1);
    expect(busy).toMatchObject({
      status: 409,
      body: {
        code: 9,
        message: "LiveLesson is currently busy. Can't make changes yet. Try later",
        error: "LiveLesson is currently busy. Can't make changes yet. Try later",
      },
    });
    await api.data.liveLessons.updateStatus(id, 'READY');
    expect((await request(1)).status).toBe(200);
    expect(api.received['antidote.livelesson.modify.v1']).toContainEqual({ liveLessonId: id, stage: 1 });
    expect((await api.call('GET', `/exp/livelesson/${id}`)).body).toMatchObject({
      Status: 'CONFIGURATION',
      CurrentStage: 1,
      GuideContents: expect.stringContaining('Files and permissions'),
    });
  });

  it('kills a live lesson through the scheduler, for its own session or the admin token only', async () => {
    const sessionId = await newSession();
    const { id } = (await api.call('POST', '/exp/livelesson', { lessonSlug: 'web-services', sessionId, lessonStage: 0 })).body as { id: string };
    const refused = { status: 403, body: { code: 7, details: [{ field: 'sessionId' }] } };
    expect(await api.call('DELETE', `/exp/livelesson/${id}`)).toMatchObject(refused);
    expect(await api.call('DELETE', `/exp/livelesson/${id}?sessionId=${await newSession()}`)).toMatchObject(refused);
    expect(await api.call('DELETE', `/exp/livelesson/${id}`, undefined, { authorization: 'Bearer wrong-token' })).toMatchObject(refused);
    expect(api.received['antidote.livelesson.delete.v1'] ?? []).not.toContainEqual(expect.objectContaining({ liveLessonId: id }));
    expect((await api.data.liveLessons.get(id)).deleteRequestedAt).toBeUndefined();
    expect(await api.call('DELETE', `/exp/livelesson/${id}?sessionId=${sessionId}`)).toMatchObject({ status: 200, body: { success: true } });
    expect(api.received['antidote.livelesson.delete.v1']).toContainEqual(expect.objectContaining({ liveLessonId: id }));
    expect((await api.data.liveLessons.get(id)).deleteRequestedAt).toBeInstanceOf(Date);
    expect((await api.call('DELETE', '/exp/livelesson/nosuchlesson')).status).toBe(404);
    const other = ((await api.call('POST', '/exp/livelesson', { lessonSlug: 'linux-basics', sessionId, lessonStage: 0 })).body as { id: string }).id;
    expect(await api.call('DELETE', `/exp/livelesson/${other}`, undefined, { authorization: 'Bearer secret-admin-token' })).toMatchObject({
      status: 200,
      body: { success: true },
    });
  });

  it('answers bad requests with the original texts and the right 4xx, never 500', async () => {
    const sessionId = await newSession();
    const cases: [unknown, number, string][] = [
      [{ lessonSlug: 'linux-basics', sessionId: '', lessonStage: 0 }, 400, 'Session ID cannot be nil'],
      [{ lessonSlug: 'linux-basics', sessionId: 'nosuchsession', lessonStage: 0 }, 400, 'Invalid session ID nosuchsession'],
      [{ lessonSlug: '', sessionId, lessonStage: 0 }, 400, 'Lesson Slug cannot be nil'],
      [{ lessonSlug: 'no-such-lesson', sessionId, lessonStage: 0 }, 404, "Couldn't find lesson slug 'no-such-lesson'"],
      [{ lessonSlug: 'linux-basics', sessionId, lessonStage: 7 }, 400, 'Invalid stage ID for this lesson'],
      [{ lessonSlug: 'linux-basics', sessionId, lessonStage: -1 }, 400, 'invalid lessonStage'],
      [{ lessonSlug: 'linux-basics', sessionId, lessonStage: 'zero' }, 400, 'invalid lessonStage'],
      ['{"lessonSlug": ', 400, 'malformed'],
      ['[1,2,3]', 400, 'invalid'],
      [{ lessonSlug: 'x'.repeat(200_000), sessionId }, 413, 'request body too large'],
    ];
    for (const [body, status, message] of cases) {
      const response = await api.call('POST', '/exp/livelesson', body);
      expect({ status: response.status, message: (response.body as { message: string }).message }).toEqual({
        status,
        message: expect.stringContaining(message),
      });
    }
    expect((await api.call('GET', '/exp/livelesson/nosuchlesson')).body).toMatchObject({ code: 5, message: 'livelesson not found' });
    expect((await api.call('GET', '/exp/livelesson/bad%20id')).status).toBe(400);
    expect((await api.call('GET', '/exp/lesson/Nope!')).status).toBe(400);
    expect((await api.call('GET', '/exp/nowhere')).status).toBe(404);
    expect(
      (await api.call('PUT', `/exp/admin/livesession/${sessionId}/persistence`, { persistent: true, extra: 1 }, { authorization: 'Bearer secret-admin-token' }))
        .body,
    ).toMatchObject({ code: 3, message: 'unknown field "extra"' });
    expect(await api.data.liveLessons.list({ sessionId })).toEqual([]);
  });

  it('serves lessons, prereqs, collections, images, curriculum and info in the swagger shapes', async () => {
    const lessons = (await api.call('GET', '/exp/lesson')).body as { lessons: { Slug: string }[] };
    expect(lessons.lessons.map((l) => l.Slug)).toEqual(['host-networking', 'jupyter-intro', 'linux-basics', 'network-automation', 'web-services']);
    expect(((await api.call('GET', '/exp/lesson?Category=tools')).body as { lessons: unknown[] }).lessons).toHaveLength(2);
    expect((await api.call('GET', '/exp/lesson/network-automation/prereqs')).body).toEqual({ prereqs: ['linux-basics'] });
    expect((await api.call('GET', '/exp/lesson/linux-basics')).body).toMatchObject({
      Slug: 'linux-basics',
      Stages: [{ GuideType: 'markdown' }, { GuideType: 'markdown' }],
    });
    expect((await api.call('GET', '/exp/collection/getting-started')).body).toMatchObject({
      Slug: 'getting-started',
      Lessons: expect.arrayContaining([{ Slug: 'linux-basics', Name: 'Linux Basics', Description: expect.any(String) }]),
    });
    expect((await api.call('GET', '/exp/image')).body).toEqual({ items: { utility: { Name: 'utility' }, vqfx: { Name: 'vqfx' } } });
    expect(await api.call('GET', '/exp/collection/nope')).toMatchObject({ status: 404, body: { message: 'Unable to find collection nope' } });
    expect(await api.call('GET', '/exp/image/nope')).toMatchObject({ status: 404, body: { message: 'Unable to find image nope' } });
    expect((await api.call('GET', '/exp/image/vqfx')).body).toEqual({ Name: 'vqfx' });
    expect((await api.call('GET', '/exp/curriculum')).body).toMatchObject({ Name: 'antidote-sample-curriculum', AVer: '0.7.0' });
    expect((await api.call('GET', '/exp/antidoteinfo')).body).toMatchObject({ buildVersion: '0.1.0', curriculumVersion: 'latest' });
    const openapi = (await api.call('GET', '/exp/openapi.json')).body as { paths: Record<string, unknown> };
    expect(Object.keys(openapi.paths)).toContain('/exp/livelesson/{id}/events');
  });
});
