import { describe, expect, it } from 'vitest';
import { IMAGE_FILE, LESSON_FILE, withFile, writeCurriculum } from '../test/curriculum-builder.js';
import { readCurriculum, type Problem } from './index.js';

const withReadiness = (readiness: unknown) => withFile(IMAGE_FILE, (image) => (image.readiness = readiness));
const read = async (readiness: unknown) =>
  readCurriculum(writeCurriculum(readiness === undefined ? withFile(IMAGE_FILE, () => undefined) : withReadiness(readiness)), { tier: 'local' });
const only = (problems: Problem[]) => problems.map(({ file, field, message }) => ({ file, field, message }));
const image = (field: string, message: string) => ({ file: IMAGE_FILE, field, message });
const LINEAR =
  'must run in linear time: back-references, lookahead/lookbehind and counted repetitions over 16 (such as {32}) can backtrack catastrophically; use + or * instead';

describe("an image's readiness check", () => {
  it.each([
    ['absent (every existing curriculum)', undefined, undefined],
    ['null (an empty YAML key)', null, undefined],
    ['a command over SSH', { type: 'ssh', command: 'show version', match: 'Model: \\S+' }, { type: 'ssh', command: 'show version', match: 'Model: \\S+' }],
    [
      'an HTTP path and status on a port',
      { type: 'http', path: '/healthz', status: 204, port: 8080 },
      { type: 'http', path: '/healthz', status: 204, port: 8080 },
    ],
    ['an HTTP path on the http presentation', { type: 'http', path: '/' }, { type: 'http', path: '/' }],
    ['a TCP banner', { type: 'tcp', match: '^SSH-2\\.0-', port: 22 }, { type: 'tcp', match: '^SSH-2\\.0-', port: 22 }],
    // Exponential for a backtracking engine, linear for V8's linear-time one, which the healthchecker uses.
    ['nested quantifiers', { type: 'tcp', match: '^(a+)+$', port: 22 }, { type: 'tcp', match: '^(a+)+$', port: 22 }],
  ] as const)('is accepted: %s', async (_case, readiness, expected) => {
    // The http case without a port needs an http presentation: give linux2 one in that case only.
    const files = readiness === undefined ? withFile(IMAGE_FILE, () => undefined) : withReadiness(readiness);
    if (readiness && 'path' in readiness && !('port' in readiness)) {
      const lesson = files[LESSON_FILE] as { endpoints: { presentations?: unknown[] }[] };
      for (const endpoint of lesson.endpoints) endpoint.presentations = [...(endpoint.presentations ?? []), { name: 'web', port: 80, type: 'http' }];
    }
    const result = await readCurriculum(writeCurriculum(files), { tier: 'local' });
    expect(only(result.problems)).toEqual([]);
    expect(result.curriculum?.images[0].readiness).toEqual(expected);
  });

  const long = 'a'.repeat(257);
  it.each([
    ['no type', { command: 'show version', match: 'x' }, [image('readiness.type', 'must be a check with type ssh, http or tcp')]],
    ['an unknown type', { type: 'ftp' }, [image('readiness.type', 'must be a check with type ssh, http or tcp')]],
    ['not a mapping', 'yes', [image('readiness', 'must be a check with type ssh, http or tcp')]],
    [
      'ssh without command and match',
      { type: 'ssh' },
      [image('readiness.command', 'is required (a command)'), image('readiness.match', 'is required (a regular expression)')],
    ],
    ['ssh with a command of two lines', { type: 'ssh', command: 'show version\nreboot', match: 'x' }, [image('readiness.command', 'must be one line')]],
    ['ssh with a command too long', { type: 'ssh', command: long, match: 'x' }, [image('readiness.command', 'must be at most 256 characters')]],
    [
      'a pattern that does not compile',
      { type: 'ssh', command: 'show version', match: '(unclosed' },
      [image('readiness.match', 'must be a valid regular expression')],
    ],
    ['a pattern too long', { type: 'tcp', match: long }, [image('readiness.match', 'must be at most 256 characters')]],
    ['an empty pattern', { type: 'tcp', match: '' }, [image('readiness.match', 'must not be empty')]],
    ...[
      ['a back-reference that backtracks catastrophically', '^(a+)+\\1$'],
      ['a lookahead', '^(?=(a+)+b)'],
      ['a lookbehind', '(?<=(a|aa)+)b'],
      ['a counted repetition over 16', '[0-9a-f]{32}'],
      ['nested counted repetitions over 16 in all', '(?:(?:a?){5}){5}'],
    ].map(([name, match]) => [`${name} (${match})`, { type: 'tcp', match }, [image('readiness.match', LINEAR)]] as const),
    [
      'http with a relative path',
      { type: 'http', path: 'healthz', port: 80 },
      [image('readiness.path', 'must be a path starting with "/" (printable characters, no spaces)')],
    ],
    [
      'http with a path with a space',
      { type: 'http', path: '/a b', port: 80 },
      [image('readiness.path', 'must be a path starting with "/" (printable characters, no spaces)')],
    ],
    ['http with a status out of range', { type: 'http', path: '/', status: 700, port: 80 }, [image('readiness.status', 'must be an HTTP status (100-599)')]],
    ['a port out of range', { type: 'tcp', match: 'x', port: 70000 }, [image('readiness.port', 'must be at most 65535')]],
    ['an unknown key', { type: 'tcp', match: 'x', timeout: 5 }, [image('readiness', 'Unrecognized key: "timeout"')]],
  ] as const)('is refused with the file and field: %s', async (_case, readiness, expected) => {
    const { problems } = await read(readiness);
    // The image is invalid, so the lesson's endpoints report nothing more about it (no cascade).
    expect(only(problems)).toEqual(expected);
  });

  it('must have a port on every endpoint that uses the image: an http check needs an http presentation or its own port', async () => {
    const { problems } = await read({ type: 'http', path: '/healthz' });
    expect(only(problems)).toEqual([
      {
        file: LESSON_FILE,
        field: 'endpoints[0].image',
        message:
          'endpoint "linux1" has no port for the readiness check (http) of image "utility": give it an http presentation, or set readiness.port in the image',
      },
      {
        file: LESSON_FILE,
        field: 'endpoints[1].image',
        message:
          'endpoint "linux2" has no port for the readiness check (http) of image "utility": give it an http presentation, or set readiness.port in the image',
      },
    ]);
  });

  it('an ssh check runs on port 22 without an ssh presentation, a tcp check on the first port', async () => {
    expect((await read({ type: 'ssh', command: 'uptime', match: 'up' })).problems).toEqual([]);
    expect((await read({ type: 'tcp', match: 'ready' })).problems).toEqual([]);
  });
});
