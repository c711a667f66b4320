import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDataSource, DataManager } from '@antidote/data';
import { describe, expect, it } from 'vitest';

const bin = join(import.meta.dirname, '..', 'bin', 'antictl.js');
const sample = join(import.meta.dirname, '..', '..', '..', 'examples', 'curriculum');

/** Runs the built CLI as a user would; resolves with its exit code and output. */
const antictl = (...args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [bin, ...args], { timeout: 150_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });

describe('antictl (the built CLI)', () => {
  it('validates the sample curriculum, in plain and JSON output', async () => {
    const plain = await antictl('curriculum', 'validate', sample);
    expect(plain).toMatchObject({ code: 0 });
    expect(plain.stdout).toMatch(/valid .*"lessons":5/);
    const json = await antictl('--json', 'curriculum', 'validate', sample);
    expect(JSON.parse(json.stdout)).toMatchObject({ valid: true, counts: { lessons: 5 }, problems: [] });
  });

  it('with the config, refuses an image asking to run privileged that pods.trustedImages does not allow, naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'antictl-trusted-'));
    const curriculum = join(dir, 'curriculum');
    cpSync(sample, curriculum, { recursive: true });
    const vqfx = join(curriculum, 'images', 'vqfx', 'image.meta.yaml');
    writeFileSync(vqfx, readFileSync(vqfx, 'utf8').replace(/^flavor: untrusted$/m, 'flavor: trusted'));
    const config = (trusted: string[]) => {
      const file = join(dir, `config-${trusted.length}.yml`);
      writeFileSync(
        file,
        `instanceId: antictl-test
curriculumDir: /unused
pods:
  trustedImages: ${JSON.stringify(trusted)}
`,
      );
      return file;
    };
    const refused = await antictl('--json', 'curriculum', 'validate', curriculum, '--config', config([]));
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({
      valid: false,
      problems: [
        {
          file: 'images/vqfx/image.meta.yaml',
          field: 'flavor',
          rule: 'trusted-image',
          message: expect.stringMatching(
            /^image "vqfx" asks for flavor trusted \(privileged pods\), which the operator has not allowed \(pods\.trustedImages: none\)/,
          ),
        },
      ],
    });
    expect(await antictl('curriculum', 'validate', curriculum, '--config', config(['vq*']))).toMatchObject({ code: 0 });
    // Without a config there is no operator to ask: the curriculum alone is checked.
    expect(await antictl('curriculum', 'validate', curriculum)).toMatchObject({ code: 0 });
  });

  it('reports every problem of an invalid curriculum with its file, and exits 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'antictl-curriculum-'));
    writeFileSync(join(dir, 'curriculum.meta.yaml'), 'name: Broken\ndescription: x\n');
    mkdirSync(join(dir, 'lessons', 'bad'), { recursive: true });
    writeFileSync(join(dir, 'lessons', 'bad', 'lesson.meta.yaml'), 'name: Bad\nslug: bad\nstages: []\nendpoints:\n  - name: x\n    image: nosuchimage\n');
    const result = await antictl('curriculum', 'validate', dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/error: lessons\/bad\/lesson\.meta\.yaml/);
    expect(result.stdout).toMatch(/problem\(s\)/);
  });

  it('imports a curriculum into the configured database; a broken one changes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'antictl-import-'));
    const url = `sqlite:${join(dir, 'antidote.sqlite')}`;
    const config = join(dir, 'antidote-config.yml');
    writeFileSync(config, `instanceId: antictl-test\ncurriculumDir: /unused\ntier: local\ndatabase:\n  url: "${url}"\n`);
    const imported = await antictl('--json', 'curriculum', 'import', sample, '--config', config);
    expect(imported.stderr).toBe('');
    expect(JSON.parse(imported.stdout)).toMatchObject({ imported: true, counts: { lessons: 5 } });
    const broken = join(dir, 'broken');
    mkdirSync(join(broken, 'lessons', 'bad'), { recursive: true });
    writeFileSync(join(broken, 'curriculum.meta.yaml'), 'name: Broken\n');
    writeFileSync(join(broken, 'lessons', 'bad', 'lesson.meta.yaml'), 'name: Bad\nslug: bad\n');
    const refused = await antictl('curriculum', 'import', broken, '--config', config);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/nothing imported, the current curriculum is unchanged/);
    const dataSource = createDataSource({ url, poolSize: 1, migrateOnStart: false });
    await dataSource.initialize();
    const lessons = await new DataManager(dataSource).curriculum.listLessons();
    await dataSource.destroy();
    expect(lessons.map((lesson) => lesson.slug).sort()).toEqual(['host-networking', 'jupyter-intro', 'linux-basics', 'network-automation', 'web-services']);
  });

  it('prints the nats-server authorization for a NATS the operator runs: one user per app, passwords from the environment', async () => {
    const printed = await antictl('nats-config');
    expect(printed.code).toBe(0);
    for (const app of ['api', 'scheduler', 'healthchecker', 'reaper', 'admin'])
      expect(printed.stdout).toContain(`{ user: "${app}", password: $${app.toUpperCase()}_PASSWORD`);
  });

  it('says clearly when the API or NATS cannot be reached, and refuses bad arguments', async () => {
    const api = await antictl('lesson', 'get', 'abcdef', '--api', 'http://127.0.0.1:9');
    expect(api.code).toBe(1);
    expect(api.stderr).toMatch(/cannot reach the Antidote API at http:\/\/127\.0\.0\.1:9/);
    const nats = await antictl('reap', '--dry-run', '--nats', 'nats://127.0.0.1:9');
    expect(nats.code).toBe(1);
    expect(nats.stderr).toMatch(/cannot reach NATS|no reaper answered/);
    const credentials = await antictl('reap', '--dry-run', '--nats', 'nats://127.0.0.1:9', '--credentials', '/nonexistent/nats-credentials.json');
    expect(credentials).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/antictl: cannot read NATS credentials from \/nonexistent\/nats-credentials\.json/),
    });
    const stage = await antictl('lesson', 'request', 'x', '--stage', 'two', '--api', 'http://127.0.0.1:9');
    expect(stage.code).toBe(2);
    const unknown = await antictl('frobnicate');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/unknown command/);
  });
});
