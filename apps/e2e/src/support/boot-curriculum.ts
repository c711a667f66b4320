import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './antictl-up.js';

/** The images of the sample curriculum with a router, as the boot profiles of a realistic run name them (kube-sim image patterns). */
export const DEVICE_IMAGES = { router: '*vmx*', switch: '*vqfx*', host: '*utility*' } as const;

/** Whether an endpoint of this image is up when its CLI answers (the router and the switch have a readiness check), else when its SSH login works. */
export const upsAtCli = (image = ''): boolean => ['vmx', 'vqfx'].some((name) => image.includes(name));

/**
 * The sample curriculum, plus what it lacks to have every kind of device: a router image (`vmx`, the vqfx
 * switch's settings: ready when its CLI answers) and a lesson `routing` with a router and a host. Written to a
 * folder of its own; the sample is not changed.
 */
export function sampleCurriculumWithRouter(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'antidote-boot-curriculum-')), 'curriculum');
  cpSync(join(ROOT, 'examples', 'curriculum'), dir, { recursive: true });
  mkdirSync(join(dir, 'images', 'vmx'));
  const vqfx = readFileSync(join(dir, 'images', 'vqfx', 'image.meta.yaml'), 'utf8');
  writeFileSync(
    join(dir, 'images', 'vmx', 'image.meta.yaml'),
    vqfx.replace('slug: vqfx', 'slug: vmx').replace(/^description: .*$/m, 'description: A virtual router'),
  );
  const lesson = join(dir, 'lessons', 'workflows', 'routing');
  mkdirSync(join(lesson, 'stage0', 'configs'), { recursive: true });
  writeFileSync(join(lesson, 'stage0', 'guide.md'), '# Routing\n\nA router and a host.\n');
  cpSync(join(dir, 'lessons', 'workflows', 'network-automation', 'stage0', 'configs', 'linux1.py'), join(lesson, 'stage0', 'configs', 'linux1.py'));
  writeFileSync(
    join(lesson, 'lesson.meta.yaml'),
    [
      'name: Routing',
      'slug: routing',
      'category: workflows',
      'tier: prod',
      'description: A router and a host on one link.',
      'shortDescription: A router',
      'stages:',
      '  - description: The link',
      '    guideType: markdown',
      'endpoints:',
      '  - name: r1',
      '    image: vmx',
      '    presentations:',
      '      - name: cli',
      '        port: 22',
      '        type: ssh',
      '  - name: linux1',
      '    image: utility',
      '    configurationType: python',
      '    presentations:',
      '      - name: cli',
      '        port: 22',
      '        type: ssh',
      'connections:',
      '  - a: r1',
      '    b: linux1',
      '',
    ].join('\n'),
  );
  return dir;
}
