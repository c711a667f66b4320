import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validFiles, withLesson, writeCurriculum, type CurriculumFiles } from '../test/curriculum-builder.js';
import { readCurriculum } from './index.js';

const fixtures = join(import.meta.dirname, '..', 'test', 'fixtures');
const sample = join(import.meta.dirname, '..', '..', '..', 'examples', 'curriculum');
const read = (files: CurriculumFiles, tier: 'prod' | 'ptr' | 'local' = 'local') => readCurriculum(writeCurriculum(files), { tier });

describe('readCurriculum: valid curricula', () => {
  it('reads the sample curriculum with no problem and every feature present', async () => {
    const result = await readCurriculum(sample, { tier: 'prod', instanceId: 'antidote-local' });
    expect(result.problems).toEqual([]);
    expect(result.warnings).toEqual([]);
    const lessons = result.curriculum!.lessons;
    expect(lessons.map((l) => l.slug).sort()).toEqual(['host-networking', 'jupyter-intro', 'linux-basics', 'network-automation', 'web-services']);
    const automation = lessons.find((l) => l.slug === 'network-automation')!;
    expect(automation.endpoints.map((e) => [e.name, e.configurationType, e.configurationFile])).toEqual([
      ['vqfx1', 'napalm', 'vqfx1-junos.txt'],
      ['vqfx2', 'ansible', 'vqfx2.yml'],
      ['linux1', 'python', 'linux1.py'],
    ]);
    expect(automation.endpoints[0].configurationFiles).toEqual({ 0: 'stage0/configs/vqfx1-junos.txt', 1: 'stage1/configs/vqfx1-junos.txt' });
    expect(automation.connections.map((c) => c.subnet)).toEqual(['10.12.0.0/24', '', '']);
    expect(lessons.find((l) => l.slug === 'jupyter-intro')!.stages[0].guideType).toBe('jupyter');
    expect(lessons.find((l) => l.slug === 'web-services')!.endpoints[0].presentations.some((p) => p.type === 'http')).toBe(true);
    expect(result.curriculum!.images.find((i) => i.slug === 'vqfx')!.networkInterfaces).toEqual(['em3', 'em4', 'em5']);
  });

  it('reads the reference test curriculum (§2.4) at tier local, accepting the legacy privileged key (§8.3 #13–15)', async () => {
    const result = await readCurriculum(join(fixtures, 'test-curriculum'), { tier: 'local' });
    expect(result.problems).toEqual([]);
    expect(result.curriculum!.meta.name).toBe('antidote-test-curriculum');
    expect(result.curriculum!.collections[0]).toMatchObject({
      slug: 'valid-collection',
      title: 'Stargate Command',
      collectionFile: 'collections/stargatecommand/collection.meta.yaml',
    });
    const lesson = result.curriculum!.lessons[0];
    expect(lesson).toMatchObject({ slug: 'valid-lesson', lessonDir: 'lessons/validlesson1', lessonFile: 'lessons/validlesson1/lesson.meta.yaml' });
    expect(lesson.endpoints.map((e) => e.configurationFile)).toEqual(['foobar1-junos.txt', 'foobar2.py', 'foobar3.yml']);
    expect(lesson.connections).toHaveLength(3);
  });

  it('reads the reference hack/mocks curriculum (§2.4) at tier prod', async () => {
    const result = await readCurriculum(join(fixtures, 'hack-mocks'), { tier: 'prod', instanceId: 'antidote-testing' });
    expect(result.problems).toEqual([]);
    expect(result.counts).toEqual({ collections: 0, images: 1, lessons: 1, skippedCollections: 0, skippedLessons: 0 });
    expect(result.curriculum!.images[0]).toMatchObject({ slug: 'utility', configPassword: 'antidotePassword', networkInterfaces: ['net1'] });
    const lesson = result.curriculum!.lessons[0];
    expect(lesson).toMatchObject({
      slug: 'test-lesson',
      name: 'Antidote Test Lesson',
      category: 'workflows',
      collection: '',
      prereqs: [],
      tags: [],
      connections: [],
      authors: [],
      readyDelay: 0,
    });
    expect(lesson.endpoints).toEqual([
      {
        name: 'linux',
        image: 'utility',
        configurationType: '',
        configurationFile: '',
        configurationFiles: {},
        additionalPorts: [],
        presentations: [{ name: 'cli1', port: 22, type: 'ssh' }],
      },
    ]);
    expect(lesson.stages).toEqual([{ description: 'Test stage', guideType: 'markdown', stageVideo: '', guideContents: 'test guide' }]);
  });

  it('reads the published format unmodified: comments, document markers, empty keys, nested lessons, both guide types', async () => {
    const result = await readCurriculum(join(fixtures, 'published-format'), { tier: 'prod', instanceId: 'antidote-prod' });
    expect(result.problems).toEqual([]);
    expect(result.warnings).toEqual([]);
    const { collections, lessons } = result.curriculum!;
    expect(collections[0].longDescription).toBe('\nHello there!\n\nMulti-line descriptions keep their line breaks.\n');
    expect(lessons.map((l) => [l.slug, l.lessonDir])).toEqual([
      ['linux-shell', 'lessons/linux-shell'],
      ['napalm-getters', 'lessons/tools/automation/napalm-getters'],
    ]);
    expect(lessons[0]).toMatchObject({ collection: '', diagram: '', prereqs: [], authors: [{ name: 'A. Author', link: 'TBD' }] });
    const napalm = lessons[1];
    expect(napalm).toMatchObject({ collection: 'acme', prereqs: ['linux-shell'], readyDelay: 5, tags: ['multi-vendor', 'network automation', 'napalm'] });
    expect(napalm.stages.map((s) => [s.guideType, s.stageVideo, s.guideContents.slice(0, 10)])).toEqual([
      ['jupyter', 'https://www.youtube.com/embed/yyyyyyyyyyy', '{"cells": '],
      ['markdown', '', '# The CLI\n'],
    ]);
    expect(napalm.endpoints.map((e) => [e.name, e.additionalPorts, e.presentations.length])).toEqual([
      ['linux1', [8888], 1],
      ['vqfx1', [], 1],
      ['vqfx2', [830], 0],
    ]);
    // Configuration files are found in subfolders, and matched on the whole base name: old-vqfx1-junos.txt is not vqfx1's.
    expect(napalm.endpoints[1]).toMatchObject({
      configurationFile: 'vqfx1-junos.txt',
      configurationFiles: { 0: 'stage0/configs/vqfx1-junos.txt', 1: 'stage1/configs/vqfx/vqfx1-junos.txt' },
    });
    expect(napalm.connections).toEqual([
      { a: 'vqfx1', b: 'vqfx2', subnet: '' },
      { a: 'linux1', b: 'vqfx1', subnet: '10.31.0.0/24' },
    ]);
  });

  it('filters by tier without calling it a problem; a lower-tier collection aborts nothing', async () => {
    const files = validFiles();
    files['collections/extra/collection.meta.yaml'] = { ...(files['collections/main/collection.meta.yaml'] as object), slug: 'extra', tier: 'local' };
    const prod = await read(files, 'prod');
    expect(prod.problems).toEqual([]);
    expect(prod.counts).toMatchObject({ collections: 1, skippedCollections: 1, lessons: 1 });
    const local = await read(
      withLesson((l) => (l.tier = 'local')),
      'prod',
    );
    expect(local.counts).toMatchObject({ lessons: 0, skippedLessons: 1 });
    expect(
      (
        await read(
          withLesson((l) => (l.tier = 'ptr')),
          'ptr',
        )
      ).counts.lessons,
    ).toBe(1);
  });

  it('accepts HEAD image format (no networkInterfaces) and unquoted numeric versions', async () => {
    const files = validFiles();
    files['curriculum.meta.yaml'] = 'name: c\ndescription: d\nwebsite: w\naVer: 0.7\ngitRoot: g\n';
    const result = await read(files);
    expect(result.problems).toEqual([]);
    expect(result.curriculum!.meta.aVer).toBe('0.7');
    expect(result.curriculum!.images[0].networkInterfaces).toEqual([]);
  });
});
