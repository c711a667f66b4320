import { cpSync, mkdirSync, mkdtempSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEFAULT_CURRICULUM_LIMITS as LIMITS } from '@antidote/config';

/** The sample curriculum every hostile one starts from (valid on its own). */
export const SAMPLE_CURRICULUM = join(import.meta.dirname, '..', '..', '..', 'examples', 'curriculum');

/**
 * Curriculum limits for test platforms: the read's wall-clock bound (15 s by default) raised, so that a
 * machine loaded by other suites never fails a start-up import of the sample curriculum; the size limits stay.
 */
export const TEST_CURRICULUM_LIMITS = { seconds: 600 } as const;

const LESSON = 'lessons/fundamentals/linux-basics';

/** A file of `bytes` zeros that takes no disk space (sparse). */
function sparse(path: string, bytes: number): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, '');
  truncateSync(path, bytes);
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/**
 * Curricula that once hung a reader (issue: "a curriculum can hang the platform"), each the sample
 * plus one attack, and what the reader must say about it: the problem names the cycle or the limit.
 */
export const HOSTILE_CURRICULA = {
  /** Symlinks inside the folder that form cycles: every file reachable through endless paths. */
  'symlink cycle': {
    build(root: string): void {
      symlinkSync(join(root, 'lessons'), join(root, LESSON, 'stage0', 'up'));
      symlinkSync(join(root, 'lessons', 'fundamentals'), join(root, LESSON, 'back'));
    },
    problem: /is a symlink cycle: it leads back to lessons/,
  },
  /** A lesson meta file under the size limit, nested half a million levels deep. */
  'deep nesting': {
    build(root: string): void {
      const half = Math.floor(LIMITS.metaFileBytes / 2) - 64;
      write(join(root, 'lessons/deep/lesson.meta.yaml'), `name: ${'['.repeat(half)}${']'.repeat(half)}\n`);
    },
    problem: new RegExp(`nests deeper than ${LIMITS.yamlDepth} levels .*the limit is ${LIMITS.yamlDepth}`),
  },
  /** 9 levels of aliases, 10 references each: a billion nodes once expanded. */
  'alias bomb': {
    build(root: string): void {
      const levels = Array.from(
        { length: 8 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array<string>(10)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(', ')}]`,
      );
      write(join(root, 'lessons/bomb/lesson.meta.yaml'), ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...levels].join('\n'));
    },
    problem: new RegExp(`aliases expand to more than ${LIMITS.yamlAliases} nodes .*the limit is ${LIMITS.yamlAliases}`),
  },
  /** A 16 GiB guide, and copies of a lesson whose guides, each just under its limit, add up past the whole read's. */
  'huge files': {
    build(root: string): void {
      sparse(join(root, LESSON, 'stage1', 'guide.md'), 16 * 1024 * 1024 * 1024);
      const copies = Math.ceil(LIMITS.totalBytes / LIMITS.guideBytes) + 1;
      for (let i = 0; i < copies; i++) {
        const copy = join(root, `lessons/big/copy${i}`);
        cpSync(join(root, LESSON, 'lesson.meta.yaml'), join(copy, 'lesson.meta.yaml'));
        for (const stage of ['stage0', 'stage1']) sparse(join(copy, stage, 'guide.md'), LIMITS.guideBytes);
      }
    },
    // Reading the guides up to the total takes a while on a busy machine: the time limit may end it first.
    problem: new RegExp(
      `bytes[^;]*; the limit is (${LIMITS.guideBytes}|${LIMITS.totalBytes})|took longer than ${LIMITS.seconds} s; the limit is ${LIMITS.seconds} s`,
    ),
  },
  /** More folder entries than a read lists. */
  'many files': {
    build(root: string): void {
      const folder = join(root, 'lessons/many');
      mkdirSync(folder, { recursive: true });
      for (let i = 0; i <= LIMITS.entries; i++) writeFileSync(join(folder, `f${i}`), '');
    },
    problem: new RegExp(`more than ${LIMITS.entries} folder entries; the limit is ${LIMITS.entries}`),
  },
} as const;

export type HostileCurriculum = keyof typeof HOSTILE_CURRICULA;

/** A fresh copy of the sample curriculum with the `kind` attack added; returns its folder. */
export function writeHostileCurriculum(kind: HostileCurriculum): string {
  const root = mkdtempSync(join(tmpdir(), `hostile-${kind.replace(/ /g, '-')}-`));
  cpSync(SAMPLE_CURRICULUM, root, { recursive: true });
  HOSTILE_CURRICULA[kind].build(root);
  return root;
}
