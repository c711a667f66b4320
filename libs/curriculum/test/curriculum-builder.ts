import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';

/** A small valid curriculum written to a temp folder; tests break one thing at a time. */
export interface CurriculumFiles {
  [relativePath: string]: string | Record<string, unknown>;
}

export function validFiles(): CurriculumFiles {
  return {
    'curriculum.meta.yaml': { name: 'c', description: 'd', website: 'w', aVer: '0.7.0', gitRoot: 'g' },
    'collections/main/collection.meta.yaml': {
      slug: 'main',
      title: 'Main',
      image: 'i',
      website: 'w',
      briefDescription: 'b',
      longDescription: 'l',
      type: 'community',
      tier: 'prod',
    },
    'images/utility/image.meta.yaml': { slug: 'utility', flavor: 'untrusted', sshUser: 'u', sshPassword: 'p', configUser: 'u', configPassword: 'p' },
    'lessons/one/lesson.meta.yaml': {
      name: 'One',
      slug: 'one',
      category: 'fundamentals',
      tier: 'prod',
      collection: 'main',
      description: 'd',
      shortDescription: 's',
      stages: [{ description: 's0', guideType: 'markdown' }],
      endpoints: [
        { name: 'linux1', image: 'utility', configurationType: 'python', presentations: [{ name: 'cli', port: 22, type: 'ssh' }] },
        { name: 'linux2', image: 'utility', additionalPorts: [8080] },
      ],
      connections: [{ a: 'linux1', b: 'linux2' }],
    },
    'lessons/one/stage0/guide.md': '# guide',
    'lessons/one/stage0/configs/linux1.py': 'print(1)',
  };
}

export function writeCurriculum(files: CurriculumFiles): string {
  const root = mkdtempSync(join(tmpdir(), 'curriculum-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), typeof content === 'string' ? content : stringify(content));
  }
  return root;
}

/** The valid files with the lesson's meta changed by `change`. */
export function withLesson(change: (lesson: Record<string, unknown>) => void, extra: CurriculumFiles = {}): CurriculumFiles {
  const files = validFiles();
  const lesson = structuredClone(files['lessons/one/lesson.meta.yaml']) as Record<string, unknown>;
  change(lesson);
  return { ...files, 'lessons/one/lesson.meta.yaml': lesson, ...extra };
}

export type RawEndpoint = { name: string; image: string; configurationType?: string; additionalPorts?: number[]; presentations?: Record<string, unknown>[] };

/** The lesson's endpoint list, typed loosely for tests that break it. */
export const endpointsOf = (lesson: Record<string, unknown>): RawEndpoint[] => lesson.endpoints as RawEndpoint[];

/** The valid files with one resource's meta (by path) changed by `change`. */
export function withFile(path: string, change: (meta: Record<string, unknown>) => void, extra: CurriculumFiles = {}): CurriculumFiles {
  const files = validFiles();
  const meta = structuredClone(files[path]) as Record<string, unknown>;
  change(meta);
  return { ...files, [path]: meta, ...extra };
}

export const LESSON_FILE = 'lessons/one/lesson.meta.yaml';
export const IMAGE_FILE = 'images/utility/image.meta.yaml';
export const COLLECTION_FILE = 'collections/main/collection.meta.yaml';
export const CURRICULUM_FILE = 'curriculum.meta.yaml';
