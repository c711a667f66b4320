import { describe, expect, it } from 'vitest';
import { kubeSchemaProblems } from '../../test/kube-schema.js';
import { testConfig, triangleLesson } from '../../test/lesson-fixture.js';
import { buildConfigJob, buildConfigJobs, configFilePath } from './config-job.builder.js';
import type { EndpointInput } from './lesson-input.js';
import { napalmDriver } from './napalm-driver.js';
import { buildConfigCredentialsSecret } from './secret.builder.js';

const config = testConfig();
const input = triangleLesson();
const [napalm, ansible, python] = input.endpoints;
const containerOf = (endpoint: EndpointInput, stage = 1, cfg = config) => buildConfigJob(input, endpoint, stage, cfg).spec!.template.spec!.containers[0];

describe('buildConfigJob', () => {
  it('names and labels the job and its pods as §5.1', () => {
    const job = buildConfigJob(input, napalm, 2, config);
    expect(job.metadata?.name).toBe('config-vqfx1-2');
    expect(job.metadata?.labels).toEqual({ antidoteManaged: 'yes', antidoteId: 'antidote-testing', jobType: 'config', stageId: '2' });
    expect(job.spec?.template.metadata?.labels).toEqual({ antidoteManaged: 'yes', antidoteId: 'antidote-testing', configPod: 'yes', stageId: '2' });
    expect(job.spec?.template.spec?.restartPolicy).toBe('Never');
    expect(job.spec?.backoffLimit).toBe(3);
    expect(job.spec?.activeDeadlineSeconds).toBe(600);
    expect(kubeSchemaProblems(job)).toEqual([]);
  });

  it('runs python and ansible on the stage configuration file', () => {
    expect(containerOf(python).command).toEqual(['python', '/antidote/stage1/configs/vqfx3.py']);
    expect(containerOf(ansible, 3).command).toEqual(['ansible-playbook', '-vvvv', '-i', '10.96.0.12,', '/antidote/stage3/configs/vqfx2.yml']);
  });

  it('runs napalm with the driver from the file name and the ssh presentation port', () => {
    const ssh2222 = { ...napalm, presentations: [{ name: 'cli', port: 2222, type: 'ssh' as const }] };
    expect(containerOf(ssh2222).command).toEqual([
      '/configure.py',
      '$(ANTIDOTE_TARGET_USERNAME)',
      '$(ANTIDOTE_TARGET_PASSWORD)',
      'junos',
      '2222',
      '10.96.0.11',
      '/antidote/stage1/configs/vqfx1-junos.txt',
    ]);
    expect(containerOf({ ...napalm, presentations: [] }).command?.[4]).toBe('22');
  });

  it('keeps credentials out of the Job spec: env comes from the namespace Secret (§9 item 27)', () => {
    const job = buildConfigJob(input, napalm, 1, config);
    expect(JSON.stringify(job)).not.toContain('Password1!');
    const env = new Map(job.spec!.template.spec!.containers[0].env!.map((entry) => [entry.name, entry]));
    expect(env.get('ANTIDOTE_TARGET_HOST')?.value).toBe('10.96.0.11');
    expect(env.get('ANTIDOTE_TARGET_USERNAME')?.valueFrom?.secretKeyRef).toEqual({ name: 'antidote-config-credentials', key: 'vqfx1.username' });
    expect(env.get('ANTIDOTE_TARGET_PASSWORD')?.valueFrom?.secretKeyRef).toEqual({ name: 'antidote-config-credentials', key: 'vqfx1.password' });
    expect(env.get('ANSIBLE_HOST_KEY_CHECKING')?.value).toBe('False');
    const secret = buildConfigCredentialsSecret(input);
    expect(secret.stringData).toMatchObject({ 'vqfx1.username': 'root', 'vqfx1.password': 'Password1!' });
    expect(kubeSchemaProblems(secret)).toEqual([]);
  });

  it('uses the imageOrg-derived configurator image, the pull secret and the lesson files (§9 item 12)', () => {
    const cfg = testConfig({ imageOrg: 'registry.example.org/labs', pullCredName: 'regcred', images: { imageVersion: 'v1.2.3' } });
    const job = buildConfigJob(input, python, 1, cfg);
    const pod = job.spec!.template.spec!;
    expect(pod.containers[0].image).toBe('registry.example.org/labs/configurator:v1.2.3');
    expect(pod.imagePullSecrets).toEqual([{ name: 'regcred' }]);
    expect(pod.initContainers?.map((c) => c.name)).toEqual(['copy-local-files']);
    expect(pod.volumes?.map((v) => v.name)).toEqual(['host-volume', 'local-copy']);
    expect(pod.containers[0].volumeMounts).toEqual([{ name: 'local-copy', mountPath: '/antidote' }]);
  });

  it('prefers the per-stage file of the curriculum', () => {
    const endpoint = { ...python, configurationFiles: { 2: 'stage2/configs/other.py' } };
    expect(configFilePath(endpoint, 2)).toBe('/antidote/stage2/configs/other.py');
    expect(configFilePath(endpoint, 1)).toBe('/antidote/stage1/configs/vqfx3.py');
    expect(() => configFilePath({ ...python, configurationFiles: { 1: '../../etc/passwd' } }, 1)).toThrow(/stay inside the lesson/);
  });

  it('refuses endpoints it cannot configure', () => {
    expect(() => buildConfigJob(input, { ...python, host: undefined }, 1, config)).toThrow(expect.objectContaining({ code: 'ENDPOINT_WITHOUT_HOST' }) as Error);
    expect(() => buildConfigJob(input, { ...python, configurationType: 'chef' as 'python' }, 1, config)).toThrow(
      expect.objectContaining({ code: 'UNKNOWN_CONFIGURATION_TYPE' }) as Error,
    );
    expect(() => buildConfigJob(input, { ...python, configurationFile: '' }, 1, config)).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIGURATION_FILE' }) as Error,
    );
  });

  it('builds one job per configured endpoint, skipping the rest', () => {
    const lesson = triangleLesson();
    const endpoints = [...lesson.endpoints, { ...python, name: 'plain', configurationType: '' as const }];
    expect(buildConfigJobs({ ...lesson, endpoints }, 1, config).map((job) => job.metadata?.name)).toEqual([
      'config-vqfx1-1',
      'config-vqfx2-1',
      'config-vqfx3-1',
    ]);
  });
});

describe('napalmDriver (§9 item 11)', () => {
  it.each([
    ['vqfx1', 'vqfx1-junos.txt', 'junos'],
    ['spine-1', 'spine-1-junos.txt', 'junos'],
    ['r1.lab', 'r1.lab-eos.txt', 'eos'],
    ['a-b.c', '/antidote/stage1/configs/a-b.c-ios_xr.conf', 'ios_xr'],
    ['leaf', 'leaf-nxos', 'nxos'],
  ])('endpoint %s, file %s → %s', (endpoint, file, driver) => {
    expect(napalmDriver(endpoint, file)).toBe(driver);
  });

  it.each([
    ['vqfx1', 'vqfx2-junos.txt'],
    ['vqfx1', 'vqfx1.txt'],
    ['vqfx1', 'vqfx1-.txt'],
    ['vqfx1', 'vqfx1-ju nos.txt'],
  ])('refuses endpoint %s with file %s', (endpoint, file) => {
    expect(() => napalmDriver(endpoint, file)).toThrow(expect.objectContaining({ code: 'INVALID_NAPALM_DRIVER' }) as Error);
  });
});
