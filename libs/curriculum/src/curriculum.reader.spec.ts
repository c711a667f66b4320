import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validFiles, withLesson, writeCurriculum, type CurriculumFiles } from '../test/curriculum-builder.js';
import { readCurriculum, type Problem } from './index.js';

const fixtures = join(import.meta.dirname, '..', 'test', 'fixtures');
const sample = join(import.meta.dirname, '..', '..', '..', 'examples', 'curriculum');
const read = (files: CurriculumFiles, tier: 'prod' | 'ptr' | 'local' = 'local') => readCurriculum(writeCurriculum(files), { tier });
const lessonFile = 'lessons/one/lesson.meta.yaml';
const only = (problems: Problem[]) => problems.map(({ file, field, message }) => ({ file, field, message }));

describe('readCurriculum: valid curricula', () => {
  it('reads the sample curriculum with no problem and every feature present', async () => {
    const result = await readCurriculum(sample, { tier: 'prod', instanceId: 'antidote-local' });
    expect(result.problems).toEqual([]);
    expect(result.warnings).toEqual([]);
    const lessons = result.curriculum!.lessons;
    expect(lessons.map((l) => l.slug).sort()).toEqual(['jupyter-intro', 'linux-basics', 'network-automation', 'web-services']);
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
    expect(result.curriculum!.collections[0]).toMatchObject({ slug: 'valid-collection', title: 'Stargate Command', collectionFile: 'collections/stargatecommand/collection.meta.yaml' });
    const lesson = result.curriculum!.lessons[0];
    expect(lesson).toMatchObject({ slug: 'valid-lesson', lessonDir: 'lessons/validlesson1', lessonFile: 'lessons/validlesson1/lesson.meta.yaml' });
    expect(lesson.endpoints.map((e) => e.configurationFile)).toEqual(['foobar1-junos.txt', 'foobar2.py', 'foobar3.yml']);
    expect(lesson.connections).toHaveLength(3);
  });

  it('filters by tier without calling it a problem; a lower-tier collection aborts nothing', async () => {
    const files = validFiles();
    files['collections/extra/collection.meta.yaml'] = { ...(files['collections/main/collection.meta.yaml'] as object), slug: 'extra', tier: 'local' };
    const prod = await read(files, 'prod');
    expect(prod.problems).toEqual([]);
    expect(prod.counts).toMatchObject({ collections: 1, skippedCollections: 1, lessons: 1 });
    const local = await read(withLesson((l) => (l.tier = 'local')), 'prod');
    expect(local.counts).toMatchObject({ lessons: 0, skippedLessons: 1 });
    expect((await read(withLesson((l) => (l.tier = 'ptr')), 'ptr')).counts.lessons).toBe(1);
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

describe('readCurriculum: every rule has a failing case with the exact problem', () => {
  it.each<[string, CurriculumFiles, Partial<Problem>]>([
    ['slug with bad characters (§8.3 #15)', withLesson((l) => (l.slug = 'foobar9b3#$(*#')), { file: lessonFile, field: 'slug', message: 'must be lower-case letters and "-" only' }],
    ['endpoint image as a reference (§8.3 #15)', withLesson((l) => ((l.endpoints as { image: string }[])[0].image = 'antidotelabs/utility:latest')), { field: 'endpoints[0].image' }],
    ['presentation port 0 (§8.3 #15)', withLesson((l) => ((l.endpoints as { presentations: { port: number }[] }[])[0].presentations[0].port = 0)), { field: 'endpoints[0].presentations[0].port', message: 'must be at least 1' }],
    ['no stages', withLesson((l) => (l.stages = [])), { field: 'stages', message: 'must have at least one stage' }],
    ['bad category', withLesson((l) => (l.category = 'magic')), { field: 'category', message: 'must be one of fundamentals, tools, workflows' }],
    ['missing description', withLesson((l) => delete l.description), { field: 'description' }],
    ['duplicate endpoints (§2.3 rule 2)', withLesson((l) => ((l.endpoints as { name: string }[])[1].name = 'linux1')), { rule: 'duplicate-endpoints', field: 'endpoints[1].name', message: 'Duplicate endpoints detected: "linux1"' }],
    ['no ports (§2.3 rule 3)', withLesson((l) => ((l.endpoints as { additionalPorts: number[] }[])[1].additionalPorts = [])), { rule: 'no-ports', field: 'endpoints[1]', message: 'No presentations configured, and no additionalPorts specified' }],
    ['duplicate presentations (§2.3 rule 5)', withLesson((l) => ((l.endpoints as { presentations: unknown[] }[])[0].presentations = [{ name: 'cli', port: 22, type: 'ssh' }, { name: 'cli', port: 23, type: 'ssh' }])), { rule: 'duplicate-presentations', field: 'endpoints[0].presentations[1].name' }],
    ['malformed connection (§2.3 rule 6)', withLesson((l) => (l.connections = [{ a: 'linux1', b: 'nobody' }])), { rule: 'malformed-connection', field: 'connections[0].b', message: 'Malformed connection: no endpoint named "nobody"' }],
    ['missing guide (§2.3 rule 7)', withLesson((l) => (l.stages = [{ guideType: 'markdown' }, { guideType: 'jupyter' }]), { 'lessons/one/stage1/configs/linux1.py': 'x' }), { rule: 'guide', field: 'stages[1].guideType', message: "Couldn't find/read lesson guide: stage1/guide.ipynb is missing or unreadable" }],
    ['unknown prereq (§2.3 rule 8)', withLesson((l) => (l.prereqs = ['nope'])), { rule: 'unknown-prereq', field: 'prereqs[0]', message: 'Lesson one listed an unknown prereq: nope' }],
    ['endpoint name not a DNS label', withLesson((l) => ((l.endpoints as { name: string }[])[1].name = 'Linux_2')), { field: 'endpoints[1].name' }],
    ['presentation name not a DNS label', withLesson((l) => ((l.endpoints as { presentations: { name: string }[] }[])[0].presentations[0].name = 'c l i')), { field: 'endpoints[0].presentations[0].name' }],
    ['unknown image', withLesson((l) => ((l.endpoints as { image: string }[])[1].image = 'ghost')), { rule: 'unknown-image', field: 'endpoints[1].image' }],
    ['unknown collection', withLesson((l) => (l.collection = 'ghost')), { rule: 'unknown-collection', field: 'collection', message: 'collection "ghost" does not exist' }],
    ['bad subnet', withLesson((l) => (l.connections = [{ a: 'linux1', b: 'linux2', subnet: 'everywhere' }])), { field: 'connections[0].subnet' }],
  ])('%s', async (_name, files, expected) => {
    const result = await read(files);
    expect(result.curriculum).toBeUndefined();
    expect(result.problems).toContainEqual(expect.objectContaining({ file: lessonFile, ...expected }));
  });

  it('reports a missing config file per stage with the expected name', async () => {
    const files = withLesson(() => undefined);
    delete files['lessons/one/stage0/configs/linux1.py'];
    files['lessons/one/stage0/configs/linux1.py.bak'] = 'x';
    const result = await read(files);
    expect(only(result.problems)).toEqual([{ file: lessonFile, field: 'endpoints[0].configurationType', message: 'Configuration file not found: stage0/configs/ has no linux1.py' }]);
  });

  it('parses napalm drivers from the whole file name, also when the endpoint name has "-"', async () => {
    const files = withLesson((l) => ((l.endpoints as object[])[0] = { name: 'core-sw1', image: 'utility', configurationType: 'napalm', presentations: [{ name: 'cli', port: 22, type: 'ssh' }] }));
    files['lessons/one/stage0/configs/core-sw1-nxos_ssh.txt'] = 'x';
    (files[lessonFile] as { connections: unknown[] }).connections = [];
    const result = await read(files);
    expect(result.problems).toEqual([]);
    expect(result.curriculum!.lessons[0].endpoints[0].configurationFile).toBe('core-sw1-nxos_ssh.txt');
  });

  it('names a filtered-out prereq as such', async () => {
    const files = withLesson((l) => (l.prereqs = ['two']));
    files['lessons/two/lesson.meta.yaml'] = { ...(files[lessonFile] as object), slug: 'two', tier: 'local', prereqs: [], collection: '' };
    files['lessons/two/stage0/guide.md'] = 'x';
    files['lessons/two/stage0/configs/linux1.py'] = 'x';
    const result = await read(files, 'prod');
    expect(result.problems).toContainEqual(expect.objectContaining({ message: 'Lesson one listed an unknown prereq: two (it exists, but its tier "local" is below the configured tier "prod")' }));
  });

  it('reports images, collections and the curriculum record by their own rules (§8.3 #13–14)', async () => {
    const files = validFiles();
    files['images/utility/image.meta.yaml'] = { slug: 'antidotelabs/utility:latest', flavor: 'untrusted', sshUser: '', sshPassword: 'p', configUser: 'u', configPassword: 'p', networkInterfaces: ['eth0', 'net1'] };
    files['collections/main/collection.meta.yaml'] = { ...(files['collections/main/collection.meta.yaml'] as object), slug: 'foobar9b3#$(*#' };
    files['curriculum.meta.yaml'] = { name: 'c' };
    const result = await read(files);
    const fields = result.problems.map((p) => `${p.file} ${p.field ?? ''}`);
    expect(fields).toEqual(expect.arrayContaining([
      'images/utility/image.meta.yaml slug',
      'images/utility/image.meta.yaml sshUser',
      'images/utility/image.meta.yaml networkInterfaces',
      'collections/main/collection.meta.yaml slug',
      'curriculum.meta.yaml description',
    ]));
    expect(result.problems.find((p) => p.field === 'networkInterfaces')!.message).toMatch(/^Not allowed to include 'eth0'/);
  });

  it('reports duplicate slugs across files with both files', async () => {
    const files = validFiles();
    files['lessons/copy/lesson.meta.yaml'] = files[lessonFile]!;
    files['lessons/copy/stage0/guide.md'] = 'x';
    files['lessons/copy/stage0/configs/linux1.py'] = 'x';
    const result = await read(files);
    expect(only(result.problems)).toEqual([{ file: 'lessons/one/lesson.meta.yaml', field: 'slug', message: 'duplicate lesson slug "one" (also in lessons/copy/lesson.meta.yaml)' }]);
  });

  it('reports every problem of many files in one pass, never stopping at the first', async () => {
    const files = withLesson((l) => {
      l.category = 'magic';
      l.tier = 'gold';
    });
    files['images/utility/image.meta.yaml'] = { slug: 'utility', flavor: 'bad', sshUser: 'u', sshPassword: 'p', configUser: 'u', configPassword: 'p' };
    const result = await read(files);
    expect(result.problems.map((p) => p.field)).toEqual(expect.arrayContaining(['category', 'tier', 'flavor']));
  });

  it('warns about unknown keys instead of failing or ignoring them silently', async () => {
    const result = await read(withLesson((l) => ((l).lessonColor = 'blue')));
    expect(result.problems).toEqual([]);
    expect(result.warnings).toEqual([expect.objectContaining({ file: lessonFile, field: 'lessonColor', message: 'unknown key "lessonColor" is ignored' })]);
  });
});

describe('readCurriculum: broken and hostile input is a report, never a crash', () => {
  it('reports broken YAML with its position, a missing root file, and a missing directory', async () => {
    const files = validFiles();
    files[lessonFile] = 'name: [unclosed\n';
    delete files['curriculum.meta.yaml'];
    const result = await read(files);
    expect(result.problems).toContainEqual(expect.objectContaining({ file: lessonFile, rule: 'yaml', message: expect.stringMatching(/^not valid YAML: .* at line \d+, column \d+/) }));
    expect(result.problems).toContainEqual(expect.objectContaining({ file: 'curriculum.meta.yaml', message: 'curriculum.meta.yaml is missing at the root of the curriculum' }));
    const missing = await readCurriculum('/nonexistent/curriculum', { tier: 'prod' });
    expect(missing.problems[0].message).toMatch(/^cannot open the curriculum directory/);
  });

  it('refuses wrong types, a YAML alias bomb, duplicate keys and oversized files', async () => {
    const files = validFiles();
    files['lessons/bomb/lesson.meta.yaml'] = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10).fill(`*${String.fromCharCode(97 + i)}`).join(', ')}]`)].join('\n');
    files['lessons/dupkeys/lesson.meta.yaml'] = 'name: a\nname: b\n';
    files['lessons/big/lesson.meta.yaml'] = `name: ${'x'.repeat(1024 * 1024 + 10)}\n`;
    files['lessons/types/lesson.meta.yaml'] = { name: 'T', slug: 'types', category: 'tools', tier: 'prod', description: 'd', shortDescription: 's', stages: 'all of them', endpoints: [{ name: 'e', image: 'utility', presentations: [{ name: 'p', port: 'twenty-two', type: 'ssh' }] }] };
    const result = await read(files);
    const byFile = (name: string) => result.problems.filter((p) => p.file === `lessons/${name}/lesson.meta.yaml`).map((p) => p.message);
    expect(byFile('bomb').join()).toMatch(/alias|Excessive/i);
    expect(byFile('dupkeys').join()).toMatch(/unique|duplicate/i);
    expect(byFile('big').join()).toMatch(/the limit is 1048576/);
    expect(result.problems).toContainEqual(expect.objectContaining({ file: 'lessons/types/lesson.meta.yaml', field: 'stages', message: 'must be a list' }));
    expect(result.problems).toContainEqual(expect.objectContaining({ field: 'endpoints[0].presentations[0].port', message: 'must be a port number' }));
  });

  it('never follows a symlink out of the curriculum directory', async () => {
    const root = writeCurriculum(validFiles());
    const outside = writeCurriculum({ 'secret.txt': 'root:x:0:0', 'lesson.meta.yaml': 'name: stolen' });
    rmSync(join(root, 'lessons/one/stage0/guide.md'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'lessons/one/stage0/guide.md'));
    symlinkSync(outside, join(root, 'lessons/escape'));
    writeFileSync(join(root, 'lessons/one/stage0/configs/linux1.py'), 'x');
    const result = await readCurriculum(root, { tier: 'prod' });
    expect(result.curriculum).toBeUndefined();
    expect(result.problems).toContainEqual(expect.objectContaining({ file: 'lessons/escape', rule: 'unsafe-path', message: expect.stringMatching(/^leads outside the curriculum directory/) }));
    expect(result.problems).toContainEqual(expect.objectContaining({ file: lessonFile, rule: 'guide', message: expect.stringMatching(/leads outside the curriculum directory/) }));
    expect(JSON.stringify(result)).not.toContain('root:x:0:0');
  });

  it('refuses very long and unicode names through the label rules', async () => {
    const long = await read(withLesson((l) => ((l.endpoints as { name: string }[])[1].name = `l${'x'.repeat(70)}`)));
    expect(long.problems).toContainEqual(expect.objectContaining({ field: 'endpoints[1].name', message: 'must be at most 63 characters' }));
    const unicode = await read(withLesson((l) => ((l.endpoints as { name: string }[])[1].name = 'lïnux')));
    expect(unicode.problems).toContainEqual(expect.objectContaining({ field: 'endpoints[1].name' }));
    const traversal = await read(withLesson((l) => ((l.endpoints as { name: string }[])[1].name = '../../etc')));
    expect(traversal.problems).toContainEqual(expect.objectContaining({ field: 'endpoints[1].name' }));
  });

  it('warns when a HEP domain label will be shortened for this instanceId', async () => {
    const result = await readCurriculum(writeCurriculum(withLesson((l) => ((l.endpoints as { presentations: { name: string }[] }[])[0].presentations[0].name = 'p'.repeat(40)))), { tier: 'prod', instanceId: 'antidote' });
    expect(result.problems).toEqual([]);
    expect(result.warnings).toContainEqual(expect.objectContaining({ rule: 'long-name', field: 'endpoints[0].presentations[0].name' }));
  });
});
