import { dirname, join } from 'node:path';
import type { Collection, Curriculum, CurriculumMeta, Image, Lesson, Tier } from './curriculum.model.js';
import { ProblemList, type Problem, type Warning } from './problem.js';
import { checkLesson } from './rules/lesson.rules.js';
import { checkReferences } from './rules/reference.rules.js';
import { SafeFs } from './safe-fs.js';
import { collectionSchema, curriculumMetaSchema, imageSchema, lessonSchema } from './schemas/curriculum.schemas.js';
import { parseWith, warnUnknownKeys } from './schemas/parse.js';
import { includedAt } from './tier.js';
import { readYamlObject } from './yaml-file.js';

export interface ReadOptions {
  /** Deployment tier: lower-tier lessons and collections are skipped (not problems). */
  tier: Tier;
  /** When given, names that would be shortened in HEP domains are warned about. */
  instanceId?: string;
}

export interface CurriculumCounts {
  collections: number;
  images: number;
  lessons: number;
  skippedCollections: number;
  skippedLessons: number;
}

export interface ReadResult {
  /** Only when there is no problem at all. */
  curriculum?: Curriculum;
  problems: Problem[];
  warnings: Warning[];
  counts: CurriculumCounts;
}

/**
 * Reads an Antidote curriculum directory (layout of reference §2.1) and checks every rule, reporting
 * all problems in one pass. Never throws on bad input: broken YAML, missing files, wrong types and
 * hostile paths all become problems.
 */
export async function readCurriculum(dir: string, options: ReadOptions): Promise<ReadResult> {
  const problems = new ProblemList();
  const counts: CurriculumCounts = { collections: 0, images: 0, lessons: 0, skippedCollections: 0, skippedLessons: 0 };
  let fs: SafeFs;
  try {
    fs = await SafeFs.open(dir);
  } catch (error) {
    problems.add(dir, 'file', `cannot open the curriculum directory: ${(error as Error).message}`);
    return { problems: problems.problems, warnings: problems.warnings, counts };
  }
  const onUnsafe = (error: { path: string; message: string }): void => problems.add(fs.relative(error.path), 'unsafe-path', error.message);
  const meta = await readOne(fs, join(fs.root, 'curriculum.meta.yaml'), 'curriculum', curriculumMetaSchema, problems);
  const collections = await readAll<Collection>(fs, 'collections', 'collection.meta.yaml', 'collection', collectionSchema, problems, onUnsafe);
  const images = await readAll<Image>(fs, 'images', 'image.meta.yaml', 'image', imageSchema, problems, onUnsafe);
  const lessons: Lesson[] = [];
  for (const path of await fs.find(join(fs.root, 'lessons'), (name) => name === 'lesson.meta.yaml', onUnsafe)) {
    const file = fs.relative(path);
    const raw = await readYamlObject(fs, path, problems);
    if (!raw) continue;
    warnUnknownKeys(raw, 'lesson', file, problems);
    const parsed = parseWith(lessonSchema, raw, file, problems);
    if (!parsed) continue;
    const { endpoints, guides } = await checkLesson(parsed, dirname(path), file, fs, problems);
    const stages = parsed.stages.map((stage, i) => ({ ...stage, guideContents: guides[i] ?? '' }));
    lessons.push({ ...parsed, endpoints, stages, lessonFile: file, lessonDir: fs.relative(dirname(path)) });
  }
  const keptCollections = collections.filter((c) => includedAt(c.value.tier, options.tier));
  const keptLessons = lessons.filter((lesson) => includedAt(lesson.tier, options.tier));
  counts.skippedCollections = collections.length - keptCollections.length;
  counts.skippedLessons = lessons.length - keptLessons.length;
  checkReferences({ collections, images, lessons, keptCollections: keptCollections.map((c) => c.value), keptLessons, tier: options.tier, instanceId: options.instanceId }, problems);
  counts.collections = keptCollections.length;
  counts.images = images.length;
  counts.lessons = keptLessons.length;
  const result: ReadResult = { problems: problems.problems, warnings: problems.warnings, counts };
  if (problems.problems.length === 0 && meta) {
    result.curriculum = { meta: meta as CurriculumMeta, collections: keptCollections.map((c) => c.value), images: images.map((i) => i.value), lessons: keptLessons };
  }
  return result;
}

type Schema = typeof curriculumMetaSchema | typeof collectionSchema | typeof imageSchema;

async function readOne(fs: SafeFs, path: string, level: 'curriculum' | 'collection' | 'image', schema: Schema, problems: ProblemList): Promise<unknown> {
  const file = fs.relative(path);
  if (!(await fs.exists(path))) {
    problems.add(file, 'file', level === 'curriculum' ? 'curriculum.meta.yaml is missing at the root of the curriculum' : 'missing');
    return undefined;
  }
  const raw = await readYamlObject(fs, path, problems);
  if (!raw) return undefined;
  warnUnknownKeys(raw, level, file, problems);
  return parseWith(schema, raw, file, problems);
}

export interface Located<T> {
  file: string;
  value: T;
}

async function readAll<T extends Collection | Image>(
  fs: SafeFs,
  folder: string,
  fileName: string,
  level: 'collection' | 'image',
  schema: Schema,
  problems: ProblemList,
  onUnsafe: (error: { path: string; message: string }) => void,
): Promise<Located<T>[]> {
  const found: Located<T>[] = [];
  for (const path of await fs.find(join(fs.root, folder), (name) => name === fileName, onUnsafe)) {
    const value = await readOne(fs, path, level, schema, problems);
    const file = fs.relative(path);
    if (value) found.push({ file, value: (level === 'collection' ? { ...(value), collectionFile: file } : value) as T });
  }
  return found;
}
