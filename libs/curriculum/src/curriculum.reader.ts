import { dirname, join } from 'node:path';
import { DEFAULT_CURRICULUM_LIMITS, type CurriculumLimits, type TrustedImages } from '@antidote/config';
import type { Collection, Curriculum, CurriculumMeta, Image, Lesson, Tier } from './curriculum.model.js';
import { ProblemList, type Problem, type Warning } from './problem.js';
import { checkLesson } from './rules/lesson.rules.js';
import { checkReferences, type Located } from './rules/reference.rules.js';
import { checkTrustedImages } from './rules/trusted-images.rules.js';
import { LimitError, SafeFs, type UnsafePathError } from './safe-fs.js';
import { collectionSchema, curriculumMetaSchema, imageSchema, lessonPartsSchema, lessonSchema } from './schemas/curriculum.schemas.js';
import { parseWith, warnUnknownKeys } from './schemas/parse.js';
import { includedAt } from './tier.js';
import { readYamlObject } from './yaml-file.js';

export interface ReadOptions {
  /** Deployment tier: lower-tier lessons and collections are skipped (not problems). */
  tier: Tier;
  /** When given, every `<instanceId>-<id>-<endpoint>-<presentation>` HEP label is checked against 63 characters. */
  instanceId?: string;
  /** Bounds of the read; any not given is the default (`curriculumLimits` of the configuration). */
  limits?: Partial<CurriculumLimits>;
  /** When given (the operator's `pods.trustedImages`), an image asking for `flavor: trusted` it does not allow is a problem. */
  trustedImages?: TrustedImages;
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
  /** Oddities that do not block an import (unknown keys). */
  warnings: Warning[];
  counts: CurriculumCounts;
}

type Level = 'curriculum' | 'collection' | 'image';
type Schema = typeof curriculumMetaSchema | typeof collectionSchema | typeof imageSchema;

/** A file read, with its value when valid, and the slug it claims either way (to avoid cascades). */
interface Found<T> {
  file: string;
  value?: T;
  slug?: string;
}

/**
 * Reads an Antidote curriculum directory (layout of reference §2.1) and checks every rule, reporting
 * all problems of all files in one pass. Never throws on bad input: broken YAML, missing files, wrong
 * types and hostile paths all become problems; every read is bounded by `options.limits` (`clock` is
 * the time source of the time limit).
 */
export async function readCurriculum(dir: string, options: ReadOptions, clock: () => number = Date.now): Promise<ReadResult> {
  const problems = new ProblemList();
  const counts: CurriculumCounts = { collections: 0, images: 0, lessons: 0, skippedCollections: 0, skippedLessons: 0 };
  let fs: SafeFs;
  try {
    fs = await SafeFs.open(dir, { ...DEFAULT_CURRICULUM_LIMITS, ...options.limits }, clock);
  } catch (error) {
    problems.add(dir, 'file', `cannot open the curriculum directory: ${(error as Error).message}`);
    return { problems: problems.problems, warnings: problems.warnings, counts };
  }
  try {
    return await readWithin(fs, options, problems, counts);
  } catch (error) {
    if (!(error instanceof LimitError)) throw error;
    // A limit of the whole read: what was found so far stands, and this one problem says where it stopped.
    problems.add(fs.relative(error.path), 'limit', error.message);
    return { problems: problems.problems, warnings: problems.warnings, counts };
  }
}

async function readWithin(fs: SafeFs, options: ReadOptions, problems: ProblemList, counts: CurriculumCounts): Promise<ReadResult> {
  const onUnsafe = (error: UnsafePathError): void => problems.add(fs.relative(error.path), 'unsafe-path', error.message);
  const meta = await readOne(fs, join(fs.root, 'curriculum.meta.yaml'), 'curriculum', curriculumMetaSchema, problems);
  const collections = await readAll<Collection>(fs, 'collections', 'collection.meta.yaml', 'collection', collectionSchema, problems, onUnsafe);
  const images = await readAll<Image>(fs, 'images', 'image.meta.yaml', 'image', imageSchema, problems, onUnsafe);
  const lessons: Found<Lesson>[] = [];
  for (const path of await fs.find(join(fs.root, 'lessons'), (name) => name === 'lesson.meta.yaml', onUnsafe)) {
    lessons.push(await readLesson(fs, path, problems));
  }

  const valid = <T>(found: Found<T>[]): Located<T>[] => found.flatMap(({ file, value }) => (value ? [{ file, value }] : []));
  const validCollections = valid(collections);
  const validLessons = valid(lessons).map((lesson) => lesson.value);
  const keptCollections = validCollections.filter((c) => includedAt(c.value.tier, options.tier)).map((c) => c.value);
  const keptLessons = validLessons.filter((lesson) => includedAt(lesson.tier, options.tier));
  const invalidSlugs = (found: Found<unknown>[]): Set<string> => new Set(found.flatMap(({ value, slug }) => (!value && slug ? [slug] : [])));
  checkReferences(
    {
      collections: validCollections,
      images: valid(images),
      lessons: validLessons,
      keptCollections,
      keptLessons,
      invalid: { collections: invalidSlugs(collections), images: invalidSlugs(images), lessons: invalidSlugs(lessons) },
      tier: options.tier,
      instanceId: options.instanceId,
    },
    problems,
  );
  if (options.trustedImages) checkTrustedImages(valid(images), options.trustedImages, problems);
  counts.collections = keptCollections.length;
  counts.skippedCollections = validCollections.length - keptCollections.length;
  counts.images = valid(images).length;
  counts.lessons = keptLessons.length;
  counts.skippedLessons = validLessons.length - keptLessons.length;
  const result: ReadResult = { problems: problems.problems, warnings: problems.warnings, counts };
  if (problems.problems.length === 0 && meta.value) {
    result.curriculum = { meta: meta.value as CurriculumMeta, collections: keptCollections, images: valid(images).map((i) => i.value), lessons: keptLessons };
  }
  return result;
}

const slugOf = (raw: Record<string, unknown> | undefined): string | undefined => (typeof raw?.slug === 'string' ? raw.slug : undefined);

async function readOne(fs: SafeFs, path: string, level: Level, schema: Schema, problems: ProblemList): Promise<Found<unknown>> {
  const file = fs.relative(path);
  if (!(await fs.exists(path))) {
    problems.add(file, 'file', level === 'curriculum' ? 'curriculum.meta.yaml is missing at the root of the curriculum' : 'missing');
    return { file };
  }
  const raw = await readYamlObject(fs, path, problems);
  if (!raw) return { file };
  warnUnknownKeys(raw, level, file, problems);
  return { file, value: parseWith(schema, raw, file, problems), slug: slugOf(raw) };
}

async function readAll<T extends Collection | Image>(
  fs: SafeFs,
  folder: string,
  fileName: string,
  level: 'collection' | 'image',
  schema: Schema,
  problems: ProblemList,
  onUnsafe: (error: UnsafePathError) => void,
): Promise<Found<T>[]> {
  const found: Found<T>[] = [];
  for (const path of await fs.find(join(fs.root, folder), (name) => name === fileName, onUnsafe)) {
    const { file, value, slug } = await readOne(fs, path, level, schema, problems);
    const typed = value ? ((level === 'collection' ? { ...value, collectionFile: file } : value) as T) : undefined;
    found.push({ file, value: typed, slug });
  }
  return found;
}

/**
 * One lesson: schema first, then the lesson rules. When the schema fails, the rules still run on the
 * parts that did parse (stages, endpoints, connections), so one pass reports a bad category and a
 * missing guide together.
 */
async function readLesson(fs: SafeFs, path: string, problems: ProblemList): Promise<Found<Lesson>> {
  const file = fs.relative(path);
  const raw = await readYamlObject(fs, path, problems);
  if (!raw) return { file };
  warnUnknownKeys(raw, 'lesson', file, problems);
  const lessonDir = dirname(path);
  const parsed = parseWith(lessonSchema, raw, file, problems);
  if (!parsed) {
    const parts = lessonPartsSchema.safeParse(raw);
    if (parts.success) await checkLesson(parts.data, lessonDir, file, fs, problems);
    return { file, slug: slugOf(raw) };
  }
  const { endpoints, guides } = await checkLesson(parsed, lessonDir, file, fs, problems);
  const stages = parsed.stages.map((stage, i) => ({ ...stage, guideContents: guides[i] ?? '' }));
  return { file, slug: parsed.slug, value: { ...parsed, endpoints, stages, lessonFile: file, lessonDir: fs.relative(lessonDir) } };
}
