import { parseConfig, type AntidoteConfig } from '@antidote/config';
import type { Image } from '@antidote/curriculum';
import type { LessonObjectsInput } from '../src/builders/lesson-input.js';

export const image = (slug: string, overrides: Partial<Image> = {}): Image => ({
  slug,
  description: '',
  flavor: 'untrusted',
  enableForwarding: false,
  networkInterfaces: [],
  sshUser: 'antidote',
  sshPassword: 'antidotepassword',
  configUser: 'root',
  configPassword: 'Password1!',
  ...overrides,
});

export const testConfig = (overrides: Record<string, unknown> = {}): AntidoteConfig =>
  parseConfig({ instanceId: 'antidote-testing', curriculumDir: '/curriculum', hepsDomain: 'heps.example.org', ...overrides }).config;

/** Three endpoints in a triangle (3 links), all configured, one http presentation, one jupyter-less lesson. */
export function triangleLesson(overrides: Partial<LessonObjectsInput> = {}): LessonObjectsInput {
  return {
    instanceId: 'antidote-testing',
    liveLessonId: 'abcdef1234',
    sessionId: 'sess000001',
    lessonSlug: 'network-triangle',
    createdAt: new Date('2024-01-02T03:04:05Z'),
    lesson: {
      lessonDir: 'lessons/network-triangle',
      connections: [
        { a: 'vqfx1', b: 'vqfx2', subnet: '10.12.0.0/24' },
        { a: 'vqfx2', b: 'vqfx3', subnet: '' },
        { a: 'vqfx1', b: 'vqfx3', subnet: '10.13.0.0/24' },
      ],
    },
    images: new Map([
      ['vqfx', image('vqfx', { flavor: 'trusted', enableForwarding: true, networkInterfaces: ['em3', 'em4'] })],
      ['utility', image('utility', { flavor: 'untrusted' })],
    ]),
    endpoints: [
      {
        name: 'vqfx1',
        image: 'vqfx',
        ports: [22, 830],
        presentations: [{ name: 'cli', port: 22, type: 'ssh' }],
        configurationType: 'napalm',
        configurationFile: 'vqfx1-junos.txt',
        host: '10.96.0.11',
      },
      {
        name: 'vqfx2',
        image: 'vqfx',
        ports: [22],
        presentations: [{ name: 'cli', port: 22, type: 'ssh' }],
        configurationType: 'ansible',
        configurationFile: 'vqfx2.yml',
        host: '10.96.0.12',
      },
      {
        name: 'vqfx3',
        image: 'utility',
        ports: [22, 8080],
        presentations: [
          { name: 'cli', port: 22, type: 'ssh' },
          { name: 'web', port: 8080, type: 'http' },
        ],
        configurationType: 'python',
        configurationFile: 'vqfx3.py',
        host: '10.96.0.13',
      },
    ],
    ...overrides,
  };
}
