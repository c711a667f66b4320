import {
  DATABASE_KINDS,
  makeCollection,
  makeCurriculum,
  makeEndpoint,
  makeImage,
  makeLesson,
  makeLiveEndpoint,
  makeNewLiveLesson,
  testDatabase,
  type TestDatabase,
} from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError } from './index.js';

describe.each(DATABASE_KINDS)('curriculum on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await testDatabase(kind);
  });
  afterAll(() => db?.close());

  it('upserts lessons by slug: last write wins (reference §8.2 #9)', async () => {
    await db.data.curriculum.insertLessons([makeLesson({ slug: 'foobar', name: 'Foo Bar Lesson' })]);
    await db.data.curriculum.insertLessons([makeLesson({ slug: 'foobar', name: 'Foo Bar Lesson Two' }), makeLesson({ slug: 'amazing' })]);
    expect((await db.data.curriculum.listLessons()).map((lesson) => lesson.slug)).toEqual(['amazing', 'foobar']);
    expect((await db.data.curriculum.getLesson('foobar')).name).toBe('Foo Bar Lesson Two');
    await expect(db.data.curriculum.getLesson('foobar2')).rejects.toThrow(new NotFoundError('Unable to find lesson foobar2'));
  });

  it('upserts images and collections by slug', async () => {
    await db.data.curriculum.insertImages([makeImage({ slug: 'foobar', description: 'one' }), makeImage({ slug: 'amazing' })]);
    await db.data.curriculum.insertImages([makeImage({ slug: 'foobar', description: 'two' })]);
    expect(await db.data.curriculum.listImages()).toHaveLength(2);
    expect((await db.data.curriculum.getImage('foobar')).description).toBe('two');
    await expect(db.data.curriculum.getImage('nope')).rejects.toThrow('Unable to find image nope');
    await db.data.curriculum.insertCollections([makeCollection({ slug: 'foobar', title: 'A' })]);
    await db.data.curriculum.insertCollections([makeCollection({ slug: 'foobar', title: 'B' })]);
    expect((await db.data.curriculum.getCollection('foobar')).title).toBe('B');
    await expect(db.data.curriculum.getCollection('nope')).rejects.toThrow('Unable to find collection nope');
  });

  it("keeps an image's readiness check, and gives none (no key) to an image that declares none; live endpoints keep theirs", async () => {
    const readiness = { type: 'ssh', command: 'show version', match: 'Model: \\S+', port: 830 } as const;
    await db.data.curriculum.insertImages([makeImage({ slug: 'ready-a', readiness }), makeImage({ slug: 'plain-b' })]);
    expect((await db.data.curriculum.getImage('ready-a')).readiness).toEqual(readiness);
    expect(await db.data.curriculum.getImage('plain-b')).not.toHaveProperty('readiness');
    expect((await db.data.curriculum.imagesOf({ endpoints: [makeEndpoint({ name: 'e1', image: 'ready-a' })] })).images.get('ready-a')?.readiness).toEqual(
      readiness,
    );
    const lesson = makeNewLiveLesson({
      id: 'ready12345',
      sessionId: 'readysess',
      endpoints: [makeLiveEndpoint({ name: 'vqfx1', readiness }), makeLiveEndpoint({ name: 'linux1', position: 1 })],
    });
    await db.data.liveSessions.create({ id: 'readysess', sourceIp: '127.0.0.1' });
    await db.data.liveLessons.create(lesson);
    const [withCheck, without] = (await db.data.liveLessons.get('ready12345')).endpoints;
    expect(withCheck.readiness).toEqual(readiness);
    expect(without).not.toHaveProperty('readiness');
  });

  it("finds a lesson's images in one lookup and names the endpoints whose image is missing", async () => {
    await db.data.curriculum.insertImages([makeImage({ slug: 'img-a' }), makeImage({ slug: 'img-b' })]);
    const endpoints = [
      makeEndpoint({ name: 'e1', image: 'img-a' }),
      makeEndpoint({ name: 'e2', image: 'img-a' }),
      makeEndpoint({ name: 'e3', image: 'img-b' }),
    ];
    const found = await db.data.curriculum.imagesOf({ endpoints });
    expect([...found.images.keys()].sort()).toEqual(['img-a', 'img-b']);
    expect(found.images.get('img-b')?.slug).toBe('img-b');
    expect(found.missing).toEqual([]);
    const partly = await db.data.curriculum.imagesOf({ endpoints: [...endpoints, makeEndpoint({ name: 'e4', image: 'gone' })] });
    expect(partly.missing).toEqual([{ endpoint: 'e4', image: 'gone' }]);
    expect(await db.data.curriculum.imagesOf({ endpoints: [] })).toEqual({ images: new Map(), missing: [] });
  });

  it('round-trips a full lesson exactly', async () => {
    const lesson = makeLesson({
      slug: 'full-lesson',
      prereqs: ['amazing'],
      tags: ['a', 'b'],
      readyDelay: 5,
      authors: [{ name: 'Ada', link: 'https://example.com/ada' }],
      connections: [{ a: 'vqfx1', b: 'vqfx2', subnet: '10.1.0.0/24' }],
      stages: [
        { description: 's0', guideType: 'markdown', stageVideo: '', guideContents: '# hello ünïcode' },
        { description: 's1', guideType: 'jupyter', stageVideo: 'https://v', guideContents: '{"cells": []}' },
      ],
      endpoints: [
        {
          name: 'vqfx1',
          image: 'vqfx',
          configurationType: 'napalm',
          configurationFile: 'vqfx1-junos.txt',
          configurationFiles: { 0: 'stage0/configs/vqfx1-junos.txt', 1: 'stage1/configs/vqfx1-junos.txt' },
          additionalPorts: [830],
          presentations: [{ name: 'cli', port: 22, type: 'ssh' }],
        },
      ],
    });
    await db.data.curriculum.insertLessons([lesson]);
    expect(await db.data.curriculum.getLesson('full-lesson')).toEqual(lesson);
  });

  it('replaces the curriculum atomically, and keeps the previous one when the import fails', async () => {
    await db.data.curriculum.replaceCurriculum(makeCurriculum({ lessons: [makeLesson({ slug: 'first' })] }));
    expect((await db.data.curriculum.listLessons()).map((l) => l.slug)).toEqual(['first']);
    expect(await db.data.curriculum.getCurriculum()).toMatchObject({ name: 'antidote-test-curriculum', aVer: '0.6.0' });
    // A lesson breaking a NOT NULL constraint makes the second half of the import fail.
    const broken = makeLesson({ slug: 'second', name: null as unknown as string });
    const bad = makeCurriculum({ meta: { ...makeCurriculum().meta, name: 'broken' }, lessons: [makeLesson({ slug: 'ok' }), broken] });
    await expect(db.data.curriculum.replaceCurriculum(bad)).rejects.toThrow();
    expect((await db.data.curriculum.listLessons()).map((l) => l.slug)).toEqual(['first']);
    expect((await db.data.curriculum.getCurriculum())?.name).toBe('antidote-test-curriculum');
  });
});
