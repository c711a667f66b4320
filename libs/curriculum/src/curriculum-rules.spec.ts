import { describe, expect, it } from 'vitest';
import {
  COLLECTION_FILE,
  CURRICULUM_FILE,
  endpointsOf,
  IMAGE_FILE,
  LESSON_FILE,
  validFiles,
  withFile,
  withLesson,
  writeCurriculum,
  type CurriculumFiles,
} from '../test/curriculum-builder.js';
import { readCurriculum, type Problem, type Tier } from './index.js';

type Expected = Pick<Problem, 'file' | 'field' | 'message'>;
const read = (files: CurriculumFiles, tier: Tier = 'local', instanceId?: string) => readCurriculum(writeCurriculum(files), { tier, instanceId });
const only = (problems: Problem[]): Expected[] => problems.map(({ file, field, message }) => ({ file, field, message }));
const lesson = (field: string | undefined, message: string): Expected => ({ file: LESSON_FILE, field, message });

/** The valid curriculum plus a second lesson `two` (tier given), which lesson `one` may refer to. */
function withSecondLesson(tier: Tier, change: (one: Record<string, unknown>) => void): CurriculumFiles {
  const files = withLesson(change);
  files['lessons/two/lesson.meta.yaml'] = {
    ...(validFiles()[LESSON_FILE] as object),
    slug: 'two',
    tier,
    endpoints: [{ name: 'linux1', image: 'utility', additionalPorts: [22] }],
    connections: [],
  };
  files['lessons/two/stage0/guide.md'] = 'two';
  return files;
}

/**
 * One broken curriculum per rule: the valid sample of test/curriculum-builder with exactly one thing
 * changed, and the complete list of problems it must produce (file, field, message).
 */
const cases: [string, CurriculumFiles, Expected[], Tier?][] = [
  // §1 schema rules, including the reference's ingestor scenarios §8.3 #13–15
  [
    'curriculum: a required key is missing',
    withFile(CURRICULUM_FILE, (m) => delete m.gitRoot),
    [{ file: CURRICULUM_FILE, field: 'gitRoot', message: 'is required (a string)' }],
  ],
  [
    'collection: slug with bad characters (§8.3 #13)',
    withFile(COLLECTION_FILE, (m) => (m.slug = 'foobar9b3#$(*#'), {}),
    [{ file: COLLECTION_FILE, field: 'slug', message: 'must be lower-case letters and "-" only' }, lesson('collection', 'collection "main" does not exist')],
  ],
  [
    'collection: unknown type',
    withFile(COLLECTION_FILE, (m) => (m.type = 'club')),
    [{ file: COLLECTION_FILE, field: 'type', message: 'must be one of vendor, community, consultancy' }],
  ],
  [
    'collection: empty tier',
    withFile(COLLECTION_FILE, (m) => (m.tier = '')),
    [{ file: COLLECTION_FILE, field: 'tier', message: 'must be one of prod, ptr, local' }],
  ],
  [
    'image: slug is an image reference (§8.3 #14)',
    withFile(IMAGE_FILE, (m) => (m.slug = 'antidotelabs/utility:latest')),
    [
      { file: IMAGE_FILE, field: 'slug', message: 'must be letters, digits and "-" only' },
      lesson('endpoints[0].image', 'endpoint "linux1" uses image "utility", which is not in images/'),
      lesson('endpoints[1].image', 'endpoint "linux2" uses image "utility", which is not in images/'),
    ],
  ],
  ['image: empty sshUser (§8.3 #14)', withFile(IMAGE_FILE, (m) => (m.sshUser = '')), [{ file: IMAGE_FILE, field: 'sshUser', message: 'must not be empty' }]],
  [
    'image: eth0 among the interfaces (§8.3 #14, HEAD)',
    withFile(IMAGE_FILE, (m) => (m.networkInterfaces = ['eth0', 'net1'])),
    [{ file: IMAGE_FILE, field: 'networkInterfaces', message: "Not allowed to include 'eth0' in networkInterfaces; it is the pod's default network" }],
  ],
  [
    'image: unknown flavor',
    withFile(IMAGE_FILE, (m) => (m.flavor = 'shiny')),
    [{ file: IMAGE_FILE, field: 'flavor', message: 'must be one of legacy, trusted, untrusted' }],
  ],
  ['lesson: slug with bad characters (§8.3 #15)', withLesson((l) => (l.slug = 'foobar9b3#$(*#')), [lesson('slug', 'must be lower-case letters and "-" only')]],
  [
    'lesson: endpoint image is a reference (§8.3 #15)',
    withLesson((l) => (endpointsOf(l)[0].image = 'antidotelabs/utility:latest')),
    [lesson('endpoints[0].image', 'must be an image slug (letters, digits and "-"), not an image reference')],
  ],
  [
    'lesson: presentation port 0 (§8.3 #15)',
    withLesson((l) => (endpointsOf(l)[0].presentations![0].port = 0)),
    [lesson('endpoints[0].presentations[0].port', 'must be at least 1')],
  ],
  [
    'lesson: unknown presentation type',
    withLesson((l) => (endpointsOf(l)[0].presentations![0].type = 'vnc')),
    [lesson('endpoints[0].presentations[0].type', 'must be one of http, ssh')],
  ],
  [
    'lesson: unknown configurationType',
    withLesson((l) => (endpointsOf(l)[0].configurationType = 'chef')),
    [lesson('endpoints[0].configurationType', 'must be one of , napalm, python, ansible')],
  ],
  ['lesson: no stages', withLesson((l) => (l.stages = [])), [lesson('stages', 'must have at least one stage')]],
  ['lesson: unknown guideType', withLesson((l) => (l.stages = [{ guideType: 'pdf' }])), [lesson('stages[0].guideType', 'must be one of markdown, jupyter')]],
  ['lesson: no endpoints', withLesson((l) => ((l.endpoints = []), (l.connections = []))), [lesson('endpoints', 'must have at least one endpoint')]],
  ['lesson: unknown category', withLesson((l) => (l.category = 'magic')), [lesson('category', 'must be one of fundamentals, tools, workflows')]],
  ['lesson: unknown tier', withLesson((l) => (l.tier = 'gold')), [lesson('tier', 'must be one of prod, ptr, local')]],
  ['lesson: empty shortDescription', withLesson((l) => (l.shortDescription = '')), [lesson('shortDescription', 'must not be empty')]],
  ['lesson: missing name', withLesson((l) => delete l.name), [lesson('name', 'is required (a string)')]],
  // §2.3 rules 2–8
  [
    'rule 2: duplicate endpoints',
    withLesson((l) => ((endpointsOf(l)[1].name = 'linux1'), (l.connections = []))),
    [lesson('endpoints[1].name', 'Duplicate endpoints detected: "linux1"')],
  ],
  [
    'rule 3: no presentations and no additional ports',
    withLesson((l) => (endpointsOf(l)[1].additionalPorts = [])),
    [lesson('endpoints[1]', 'No presentations configured, and no additionalPorts specified')],
  ],
  [
    'rule 4: python file missing',
    withLesson(() => undefined, { 'lessons/one/stage0/configs/linux1.py': undefined as unknown as string }),
    [lesson('endpoints[0].configurationType', 'Configuration file not found: stage0/configs/ has no linux1.py')],
  ],
  [
    'rule 4: ansible file missing in the second stage',
    withLesson((l) => ((endpointsOf(l)[0].configurationType = 'ansible'), (l.stages = [{ guideType: 'markdown' }, { guideType: 'markdown' }])), {
      'lessons/one/stage0/configs/linux1.yml': 'x',
      'lessons/one/stage1/guide.md': 'x',
    }),
    [lesson('endpoints[0].configurationType', 'Configuration file not found: stage1/configs/ has no linux1.yml')],
  ],
  [
    'rule 4: napalm file with an unknown driver',
    withLesson((l) => (endpointsOf(l)[0].configurationType = 'napalm'), { 'lessons/one/stage0/configs/linux1-vyos.txt': 'x' }),
    [lesson('endpoints[0].configurationType', 'Configuration file not found: stage0/configs/ has no linux1-<junos|eos|iosxr|nxos|nxos_ssh|ios>.txt')],
  ],
  [
    'rule 5: duplicate presentations',
    withLesson((l) => endpointsOf(l)[0].presentations!.push({ name: 'cli', port: 23, type: 'ssh' })),
    [lesson('endpoints[0].presentations[1].name', 'Duplicate presentations detected: "cli"')],
  ],
  [
    'rule 6: malformed connection',
    withLesson((l) => (l.connections = [{ a: 'nobody', b: 'linux2' }])),
    [lesson('connections[0].a', 'Malformed connection: no endpoint named "nobody"')],
  ],
  [
    'rule 7: markdown guide missing',
    withLesson(() => undefined, { 'lessons/one/stage0/guide.md': undefined as unknown as string }),
    [lesson('stages[0].guideType', "Couldn't find/read lesson guide: stage0/guide.md is missing or unreadable")],
  ],
  [
    'rule 7: jupyter guide missing',
    withLesson((l) => (l.stages = [{ guideType: 'jupyter' }])),
    [lesson('stages[0].guideType', "Couldn't find/read lesson guide: stage0/guide.ipynb is missing or unreadable")],
  ],
  ['rule 8: unknown prereq', withLesson((l) => (l.prereqs = ['nope'])), [lesson('prereqs[0]', 'Lesson one listed an unknown prereq: nope')]],
  [
    'rule 8: prereq filtered out by tier',
    withSecondLesson('ptr', (l) => (l.prereqs = ['two'])),
    [lesson('prereqs[0]', 'Lesson one listed an unknown prereq: two (it exists, but its tier "ptr" is below the configured tier "prod")')],
    'prod',
  ],
  // Rules the original lacked
  [
    'endpoint name is not a DNS label',
    withLesson((l) => ((endpointsOf(l)[1].name = 'Linux_2'), (l.connections = []))),
    [lesson('endpoints[1].name', 'must be a DNS-1035 label (a lower-case letter, then lower-case letters, digits and "-")')],
  ],
  [
    'endpoint name is too long',
    withLesson((l) => ((endpointsOf(l)[1].name = `l${'x'.repeat(63)}`), (l.connections = []))),
    [lesson('endpoints[1].name', 'must be at most 63 characters')],
  ],
  [
    'presentation name is not a DNS label',
    withLesson((l) => (endpointsOf(l)[0].presentations![0].name = 'web.ui')),
    [lesson('endpoints[0].presentations[0].name', 'must be a DNS-1123 label (lower-case letters, digits and "-")')],
  ],
  [
    'endpoint name is reserved',
    withLesson((l) => ((endpointsOf(l)[1].name = 'jupyterlabguide'), (l.connections = []))),
    [lesson('endpoints[1].name', '"jupyterlabguide" is reserved for the endpoint Antidote adds for Jupyter guides')],
  ],
  [
    'napalm endpoint name with "-"',
    withLesson((l) => ((endpointsOf(l)[0].name = 'core-1'), (endpointsOf(l)[0].configurationType = 'napalm'), (l.connections = [])), {
      'lessons/one/stage0/configs/core-1-junos.txt': 'x',
    }),
    [lesson('endpoints[0].name', 'napalm endpoint names must not contain "-" or "." (the driver is read from "<name>-<driver>.txt")')],
  ],
  [
    'endpoint image does not exist',
    withLesson((l) => (endpointsOf(l)[1].image = 'ghost')),
    [lesson('endpoints[1].image', 'endpoint "linux2" uses image "ghost", which is not in images/')],
  ],
  ['collection does not exist', withLesson((l) => (l.collection = 'ghost')), [lesson('collection', 'collection "ghost" does not exist')]],
  [
    'collection below the tier',
    withFile(COLLECTION_FILE, (m) => (m.tier = 'local')),
    [lesson('collection', 'collection "main" is below the configured tier "prod"')],
    'prod',
  ],
  [
    'connection subnet is not a CIDR',
    withLesson((l) => (l.connections = [{ a: 'linux1', b: 'linux2', subnet: 'everywhere' }])),
    [lesson('connections[0].subnet', 'must be an IPv4 CIDR such as 10.1.0.0/24')],
  ],
  ['readyDelay is not a number', withLesson((l) => (l.readyDelay = 'soon')), [lesson('readyDelay', 'must be a number of seconds')]],
  [
    'duplicate lesson slug',
    {
      ...validFiles(),
      'lessons/copy/lesson.meta.yaml': validFiles()[LESSON_FILE],
      'lessons/copy/stage0/guide.md': 'x',
      'lessons/copy/stage0/configs/linux1.py': 'x',
    },
    [{ file: LESSON_FILE, field: 'slug', message: 'duplicate lesson slug "one" (also in lessons/copy/lesson.meta.yaml)' }],
  ],
  [
    'duplicate image slug',
    { ...validFiles(), 'images/utility-copy/image.meta.yaml': validFiles()[IMAGE_FILE] },
    [{ file: 'images/utility-copy/image.meta.yaml', field: 'slug', message: 'duplicate image slug "utility" (also in images/utility/image.meta.yaml)' }],
  ],
  [
    'duplicate collection slug',
    { ...validFiles(), 'collections/again/collection.meta.yaml': validFiles()[COLLECTION_FILE] },
    [
      {
        file: 'collections/main/collection.meta.yaml',
        field: 'slug',
        message: 'duplicate collection slug "main" (also in collections/again/collection.meta.yaml)',
      },
    ],
  ],
];

describe('readCurriculum: one failing curriculum per rule, with the exact problems', () => {
  it.each(cases)('%s', async (_name, files, expected, tier) => {
    for (const [path, content] of Object.entries(files)) if (content === undefined) delete files[path];
    const result = await read(files, tier ?? 'local');
    expect(only(result.problems)).toEqual(expected);
    expect(result.curriculum).toBeUndefined();
  });

  it('refuses a HEP label longer than 63 characters for the given instanceId, naming the limit', async () => {
    const files = withLesson((l) => (endpointsOf(l)[0].presentations![0].name = 'p'.repeat(40)));
    expect(only((await read(files, 'prod')).problems)).toEqual([]);
    const result = await read(files, 'prod', 'antidote');
    expect(only(result.problems)).toEqual([
      lesson(
        'endpoints[0].presentations[0].name',
        `the HEP domain label "antidote-<10-char id>-linux1-${'p'.repeat(40)}" would be 67 characters; the limit for a DNS label is 63`,
      ),
    ]);
  });

  it('accepts what HEAD accepts: no networkInterfaces, an empty list, and the legacy privileged key without a warning', async () => {
    for (const change of [
      (m: Record<string, unknown>) => delete m.networkInterfaces,
      (m: Record<string, unknown>) => ((m.networkInterfaces = []), (m.privileged = false)),
    ]) {
      const result = await read(withFile(IMAGE_FILE, change));
      expect(result.problems).toEqual([]);
      expect(result.warnings).toEqual([]);
      expect(result.curriculum!.images[0].networkInterfaces).toEqual([]);
    }
  });

  it('warns about unknown keys at every level instead of failing or ignoring them silently', async () => {
    const files = withLesson((l) => {
      l.lessonColor = 'blue';
      endpointsOf(l)[0].presentations![0].zoom = 2;
    });
    (files[COLLECTION_FILE] as Record<string, unknown>).enabled = false;
    const result = await read(files);
    expect(result.problems).toEqual([]);
    expect(only(result.warnings)).toEqual([
      { file: COLLECTION_FILE, field: 'enabled', message: 'unknown key "enabled" is ignored' },
      lesson('lessonColor', 'unknown key "lessonColor" is ignored'),
      lesson('endpoints[0].presentations[0].zoom', 'unknown key "zoom" is ignored'),
    ]);
  });
});

describe('readCurriculum: all problems in one pass', () => {
  it('reports problems of every file, and the lesson rules of a lesson that failed its schema', async () => {
    const files = withLesson(
      (l) => {
        l.category = 'magic';
        endpointsOf(l)[1].name = 'linux1';
        l.connections = [];
      },
      { 'lessons/one/stage0/guide.md': undefined as unknown as string },
    );
    delete files['lessons/one/stage0/guide.md'];
    (files[IMAGE_FILE] as Record<string, unknown>).flavor = 'bad';
    const result = await read(files);
    expect(only(result.problems)).toEqual([
      { file: IMAGE_FILE, field: 'flavor', message: 'must be one of legacy, trusted, untrusted' },
      lesson('category', 'must be one of fundamentals, tools, workflows'),
      lesson('endpoints[1].name', 'Duplicate endpoints detected: "linux1"'),
      lesson('stages[0].guideType', "Couldn't find/read lesson guide: stage0/guide.md is missing or unreadable"),
    ]);
  });

  it('does not report references to a resource that exists but is itself invalid a second time', async () => {
    const files = withSecondLesson('prod', (l) => (l.prereqs = ['two']));
    (files['lessons/two/lesson.meta.yaml'] as Record<string, unknown>).category = 'magic';
    (files[IMAGE_FILE] as Record<string, unknown>).flavor = 'bad';
    (files[COLLECTION_FILE] as Record<string, unknown>).type = 'club';
    const result = await read(files);
    expect(only(result.problems)).toEqual([
      { file: COLLECTION_FILE, field: 'type', message: 'must be one of vendor, community, consultancy' },
      { file: IMAGE_FILE, field: 'flavor', message: 'must be one of legacy, trusted, untrusted' },
      { file: 'lessons/two/lesson.meta.yaml', field: 'category', message: 'must be one of fundamentals, tools, workflows' },
    ]);
  });
});
