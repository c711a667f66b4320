import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { endpointsOf, LESSON_FILE, validFiles, withLesson, writeCurriculum, type CurriculumFiles } from '../test/curriculum-builder.js';
import { readCurriculum, type Problem } from './index.js';
import { DEFAULT_CURRICULUM_LIMITS as LIMITS } from '@antidote/config';

const read = (files: CurriculumFiles) => readCurriculum(writeCurriculum(files), { tier: 'local' });
const only = (problems: Problem[]) => problems.map(({ file, field, message }) => ({ file, field, message }));

/** 9 levels of aliases, 10 references each: a billion "x" once expanded. */
const aliasBomb = [
  'a: &a [x, x, x, x, x, x, x, x, x, x]',
  ...Array.from({ length: 8 }, (_, i) => {
    const [name, previous] = [String.fromCharCode(98 + i), String.fromCharCode(97 + i)];
    return `${name}: &${name} [${Array<string>(10).fill(`*${previous}`).join(', ')}]`;
  }),
].join('\n');

describe('readCurriculum: broken input is a report, never a crash', () => {
  it('reports broken YAML with its position and a missing root file', async () => {
    const files = validFiles();
    files[LESSON_FILE] = 'name: [unclosed\n';
    delete files['curriculum.meta.yaml'];
    const result = await read(files);
    expect(only(result.problems)).toEqual([
      { file: 'curriculum.meta.yaml', field: undefined, message: 'curriculum.meta.yaml is missing at the root of the curriculum' },
      { file: LESSON_FILE, field: undefined, message: expect.stringMatching(/^not valid YAML: .* at line 2, column 1$/) },
    ]);
  });

  it('reports a curriculum directory that does not exist', async () => {
    const result = await readCurriculum('/nonexistent/curriculum', { tier: 'prod' });
    expect(only(result.problems)).toEqual([
      { file: '/nonexistent/curriculum', field: undefined, message: expect.stringMatching(/^cannot open the curriculum directory: ENOENT/) },
    ]);
    expect(result.curriculum).toBeUndefined();
  });

  it('reports a lessons "folder" that is a file; absent folders are simply empty', async () => {
    const files = validFiles();
    for (const path of Object.keys(files)) if (path.startsWith('lessons/') || path.startsWith('collections/')) delete files[path];
    files.lessons = 'not a folder';
    const result = await read(files);
    expect(only(result.problems)).toEqual([{ file: 'lessons', field: undefined, message: 'is not a directory' }]);
    expect(result.counts).toMatchObject({ collections: 0, images: 1, lessons: 0 });
  });

  it('refuses wrong types, duplicate keys, a non-mapping document and a YAML alias bomb', async () => {
    const files = validFiles();
    files['lessons/bomb/lesson.meta.yaml'] = aliasBomb;
    files['lessons/dupkeys/lesson.meta.yaml'] = 'name: a\nname: b\n';
    files['lessons/list/lesson.meta.yaml'] = '- just\n- a list\n';
    files['lessons/types/lesson.meta.yaml'] = { ...(files[LESSON_FILE] as object), slug: 'types', stages: 'all of them', readyDelay: [1] };
    const result = await read(files);
    expect(only(result.problems)).toEqual([
      {
        file: 'lessons/bomb/lesson.meta.yaml',
        field: undefined,
        message: `its aliases expand to more than ${LIMITS.yamlAliases} nodes (an alias bomb); the limit is ${LIMITS.yamlAliases}`,
      },
      {
        file: 'lessons/dupkeys/lesson.meta.yaml',
        field: undefined,
        message: expect.stringMatching(/^not valid YAML: Map keys must be unique at line 2, column 1$/),
      },
      { file: 'lessons/list/lesson.meta.yaml', field: undefined, message: 'must be a YAML mapping of keys' },
      { file: 'lessons/types/lesson.meta.yaml', field: 'stages', message: 'must be a list' },
      { file: 'lessons/types/lesson.meta.yaml', field: 'readyDelay', message: 'must be a number of seconds' },
    ]);
  });

  it('refuses oversized meta files and guides without reading them', async () => {
    const files = withLesson(() => undefined, { 'lessons/one/stage0/guide.md': 'x'.repeat(LIMITS.guideBytes + 1) });
    files['lessons/big/lesson.meta.yaml'] = `name: ${'x'.repeat(LIMITS.metaFileBytes)}\n`;
    const result = await read(files);
    expect(only(result.problems)).toEqual([
      {
        file: 'lessons/big/lesson.meta.yaml',
        field: undefined,
        message: `the file is ${LIMITS.metaFileBytes + 7} bytes; the limit is ${LIMITS.metaFileBytes}`,
      },
      {
        file: LESSON_FILE,
        field: 'stages[0].guideType',
        message: `Couldn't find/read lesson guide: stage0/guide.md is ${LIMITS.guideBytes + 1} bytes; the limit is ${LIMITS.guideBytes}`,
      },
    ]);
  });
});

describe('readCurriculum: every read is bounded', () => {
  const half = 400 * 1024;
  const deeply = {
    'flow lists': `name: ${'['.repeat(half)}${']'.repeat(half)}\n`,
    'flow mappings': `name: ${'{a: '.repeat(half / 4)}1${'}'.repeat(half / 4)}\n`,
    'lists on one line': `name:\n${'- '.repeat(half)}x\n`,
    'indentation, comments between': Array.from({ length: 900 }, (_, i) => `${' '.repeat(i)}a${i}:\n#\n`).join(''),
  };

  it.each(Object.entries(deeply))('refuses a document nested past the limit before parsing it (%s)', async (_, text) => {
    const result = await read({ ...validFiles(), 'lessons/deep/lesson.meta.yaml': text });
    expect(only(result.problems)).toEqual([
      {
        file: 'lessons/deep/lesson.meta.yaml',
        field: undefined,
        message: expect.stringMatching(
          new RegExp(`^nests deeper than ${LIMITS.yamlDepth} levels \\(line \\d+\\); the limit is ${LIMITS.yamlDepth}; not parsed$`),
        ),
      },
    ]);
  });

  it('parses a valid document up to the nesting limit, and a mapping with many keys in one pass', async () => {
    const nested = `name: x\nextra: ${'['.repeat(LIMITS.yamlDepth - 1)}${']'.repeat(LIMITS.yamlDepth - 1)}\n`;
    const manyKeys = `name: x\n${Array.from({ length: 20_000 }, (_, i) => `k${i}: ${i}`).join('\n')}\nk7: again\n`;
    const result = await read({ ...validFiles(), 'lessons/nested/lesson.meta.yaml': nested, 'lessons/keys/lesson.meta.yaml': manyKeys });
    expect(result.problems.filter((p) => p.rule.startsWith('yaml'))).toEqual([
      { file: 'lessons/keys/lesson.meta.yaml', rule: 'yaml', message: 'not valid YAML: Map keys must be unique at line 20002, column 1' },
    ]);
  });

  it('names an alias used before its anchor', async () => {
    const result = await read({ ...validFiles(), 'lessons/alias/lesson.meta.yaml': 'name: *n\nother: &n x\n' });
    expect(only(result.problems)).toEqual([
      { file: 'lessons/alias/lesson.meta.yaml', field: undefined, message: 'not valid YAML: the alias *n has no anchor &n before it' },
    ]);
  });

  it('reports a symlink cycle inside the curriculum by name, and reads every folder once', async () => {
    const root = writeCurriculum(validFiles());
    symlinkSync(join(root, 'lessons'), join(root, 'lessons/one/stage0/up'));
    symlinkSync(join(root, 'lessons/one'), join(root, 'lessons/zz-alias'));
    symlinkSync('self', join(root, 'lessons/self'));
    const result = await readCurriculum(root, { tier: 'prod' });
    expect(only(result.problems)).toEqual([
      { file: 'lessons/one/stage0/up', field: undefined, message: 'is a symlink cycle: it leads back to lessons; not followed' },
      { file: 'lessons/self', field: undefined, message: 'is a symlink that leads to itself; not followed' },
      { file: 'lessons/zz-alias', field: undefined, message: 'is the same folder as lessons/one (read already); not read twice' },
    ]);
    expect(result.counts.lessons).toBe(1);
  });

  it('stops at the total bytes, the entries and the time of one read, with one problem naming the limit', async () => {
    const files = withLesson(() => undefined, { 'lessons/one/stage0/guide.md': 'x'.repeat(2000) });
    const bytes = await readCurriculum(writeCurriculum(files), { tier: 'local', limits: { totalBytes: 1500 } });
    expect(only(bytes.problems)).toEqual([
      {
        file: 'lessons/one/stage0/guide.md',
        field: undefined,
        message: 'the curriculum holds more than 1500 bytes to read (reached at this file); the limit is 1500',
      },
    ]);

    const many: CurriculumFiles = validFiles();
    for (let i = 0; i < 30; i++) many[`lessons/many/f${i}.txt`] = '';
    const entries = await readCurriculum(writeCurriculum(many), { tier: 'local', limits: { entries: 20 } });
    expect(only(entries.problems)).toEqual([
      { file: expect.stringMatching(/^lessons\/many\/f/), field: undefined, message: 'the curriculum has more than 20 folder entries; the limit is 20' },
    ]);
    expect(entries.curriculum).toBeUndefined();

    let now = 0;
    const time = await readCurriculum(writeCurriculum(validFiles()), { tier: 'local', limits: { seconds: 5 } }, () => (now += 1000));
    expect(only(time.problems)).toEqual([
      {
        file: expect.any(String),
        field: undefined,
        message: expect.stringMatching(/^reading the curriculum took longer than 5 s \(stopped at this file\); the limit is 5 s$/),
      },
    ]);
  });
});

describe('readCurriculum: hostile paths and names are refused', () => {
  it('never follows a symlink out of the curriculum directory (files, lesson folders, configs, the lessons folder)', async () => {
    const root = writeCurriculum(validFiles());
    const outside = writeCurriculum({ 'secret.txt': 'root:x:0:0', 'lesson.meta.yaml': 'name: stolen', 'linux1.py': 'stolen' });
    rmSync(join(root, 'lessons/one/stage0/guide.md'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'lessons/one/stage0/guide.md'));
    symlinkSync(outside, join(root, 'lessons/escape'));
    rmSync(join(root, 'lessons/one/stage0/configs'), { recursive: true });
    symlinkSync(outside, join(root, 'lessons/one/stage0/configs'));
    const result = await readCurriculum(root, { tier: 'prod' });
    expect(only(result.problems)).toEqual([
      { file: 'lessons/escape', field: undefined, message: `leads outside the curriculum directory (to ${outside}); not followed` },
      { file: 'lessons/one/stage0/configs', field: undefined, message: `leads outside the curriculum directory (to ${outside}); not followed` },
      { file: LESSON_FILE, field: 'endpoints[0].configurationType', message: 'Configuration file not found: stage0/configs/ has no linux1.py' },
      {
        file: LESSON_FILE,
        field: 'stages[0].guideType',
        message: `Couldn't find/read lesson guide: stage0/guide.md leads outside the curriculum directory (to ${join(outside, 'secret.txt')}); not followed`,
      },
    ]);
    expect(JSON.stringify(result)).not.toContain('root:x:0:0');

    const whole = writeCurriculum({ 'curriculum.meta.yaml': validFiles()['curriculum.meta.yaml'] });
    symlinkSync(join(root, 'lessons'), join(whole, 'lessons'));
    const viaLink = await readCurriculum(whole, { tier: 'prod' });
    expect(only(viaLink.problems)).toEqual([
      { file: 'lessons', field: undefined, message: `leads outside the curriculum directory (to ${join(root, 'lessons')}); not followed` },
    ]);
  });

  it('follows symlinks that stay inside the curriculum', async () => {
    const root = writeCurriculum(validFiles());
    symlinkSync(join(root, 'lessons/one/stage0/guide.md'), join(root, 'lessons/one/stage0/guide-link.md'));
    rmSync(join(root, 'images/utility'), { recursive: true });
    mkdirSync(join(root, 'shared/utility'), { recursive: true });
    writeFileSync(
      join(root, 'shared/utility/image.meta.yaml'),
      'slug: utility\nflavor: untrusted\nsshUser: u\nsshPassword: p\nconfigUser: u\nconfigPassword: p\n',
    );
    symlinkSync(join(root, 'shared/utility'), join(root, 'images/utility'));
    const result = await readCurriculum(root, { tier: 'prod' });
    expect(result.problems).toEqual([]);
    expect(result.counts.images).toBe(1);
  });

  it('stops walking past the depth limit', async () => {
    const deep = ['lessons', ...Array.from({ length: LIMITS.folderDepth + 1 }, (_, i) => `d${i}`)].join('/');
    const result = await read({ ...validFiles(), [`${deep}/lesson.meta.yaml`]: 'name: deep' });
    expect(only(result.problems)).toEqual([{ file: deep, field: undefined, message: `is nested deeper than ${LIMITS.folderDepth} levels; not read` }]);
  });

  it('refuses very long, unicode and path-like endpoint names through the label rules', async () => {
    for (const name of [`l${'x'.repeat(70)}`, 'lïnux', '../../etc', 'kube-system.svc', 'Linux']) {
      const result = await read(withLesson((l) => ((endpointsOf(l)[1].name = name), (l.connections = []))));
      expect(result.problems.map((p) => `${p.file} ${p.field ?? ''}`)).toEqual([`${LESSON_FILE} endpoints[1].name`]);
    }
  });
});
