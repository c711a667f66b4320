import { DNS1123_LABEL_MAX, ID_LENGTH } from '@antidote/contracts';
import type { Collection, Image, Lesson, Tier } from '../curriculum.model.js';
import type { ProblemList } from '../problem.js';
import { checkReadinessPorts } from './readiness.rules.js';

/** A value and the file it came from (relative to the curriculum root). */
export interface Located<T> {
  file: string;
  value: T;
}

export interface ReferenceInput {
  /** Every valid resource, whatever its tier. */
  collections: Located<Collection>[];
  images: Located<Image>[];
  lessons: Lesson[];
  /** The ones the configured tier imports. */
  keptCollections: Collection[];
  keptLessons: Lesson[];
  /** Slugs of files that exist but failed validation: references to them are not reported a second time. */
  invalid: { collections: Set<string>; images: Set<string>; lessons: Set<string> };
  tier: Tier;
  instanceId?: string;
}

/** Kubernetes' limit for a DNS label, which a HEP domain's first label must fit. */

function duplicates<T>(items: readonly T[], slugOf: (item: T) => string, fileOf: (item: T) => string, kind: string, problems: ProblemList): void {
  const first = new Map<string, string>();
  for (const item of items) {
    const slug = slugOf(item);
    const seen = first.get(slug);
    if (seen) problems.add(fileOf(item), 'duplicate-slug', `duplicate ${kind} slug "${slug}" (also in ${seen})`, 'slug');
    else first.set(slug, fileOf(item));
  }
}

/**
 * Rules across files: duplicate slugs, endpoint images and lesson collections that must exist,
 * prerequisites among the imported lessons (reference §2.3 rule 8), HEP labels that must fit 63
 * characters for the given instanceId, and a port for each endpoint's readiness check.
 */
export function checkReferences(input: ReferenceInput, problems: ProblemList): void {
  duplicates(
    input.collections,
    (c) => c.value.slug,
    (c) => c.file,
    'collection',
    problems,
  );
  duplicates(
    input.images,
    (i) => i.value.slug,
    (i) => i.file,
    'image',
    problems,
  );
  duplicates(
    input.lessons,
    (l) => l.slug,
    (l) => l.lessonFile,
    'lesson',
    problems,
  );
  const images = new Set(input.images.map((image) => image.value.slug));
  const imageBySlug = new Map(input.images.map((image) => [image.value.slug, image.value]));
  const allCollections = new Set(input.collections.map((c) => c.value.slug));
  const keptCollections = new Set(input.keptCollections.map((c) => c.slug));
  const allLessons = new Map(input.lessons.map((lesson) => [lesson.slug, lesson]));
  const kept = new Set(input.keptLessons.map((lesson) => lesson.slug));
  for (const lesson of input.keptLessons) {
    const file = lesson.lessonFile;
    lesson.endpoints.forEach((endpoint, i) => {
      if (!images.has(endpoint.image) && !input.invalid.images.has(endpoint.image)) {
        problems.add(file, 'unknown-image', `endpoint "${endpoint.name}" uses image "${endpoint.image}", which is not in images/`, `endpoints[${i}].image`);
      }
      if (input.instanceId) checkHepLabels(input.instanceId, endpoint, file, i, problems);
    });
    checkReadinessPorts(lesson, (slug) => imageBySlug.get(slug), problems);
    if (lesson.collection && !keptCollections.has(lesson.collection) && !input.invalid.collections.has(lesson.collection)) {
      const why = allCollections.has(lesson.collection) ? `is below the configured tier "${input.tier}"` : 'does not exist';
      problems.add(file, 'unknown-collection', `collection "${lesson.collection}" ${why}`, 'collection');
    }
    lesson.prereqs.forEach((prereq, i) => {
      if (kept.has(prereq) || input.invalid.lessons.has(prereq)) return;
      const other = allLessons.get(prereq);
      const why = other ? ` (it exists, but its tier "${other.tier}" is below the configured tier "${input.tier}")` : '';
      problems.add(file, 'unknown-prereq', `Lesson ${lesson.slug} listed an unknown prereq: ${prereq}${why}`, `prereqs[${i}]`);
    });
  }
}

/** `<instanceId>-<10-char id>-<endpoint>-<presentation>` is the first label of the presentation's HEP domain (reference §5.1). */
function checkHepLabels(instanceId: string, endpoint: Lesson['endpoints'][number], file: string, index: number, problems: ProblemList): void {
  endpoint.presentations.forEach((presentation, j) => {
    const length = `${instanceId}-${'x'.repeat(ID_LENGTH)}-${endpoint.name}-${presentation.name}`.length;
    if (length <= DNS1123_LABEL_MAX) return;
    problems.add(
      file,
      'hep-label-length',
      `the HEP domain label "${instanceId}-<${ID_LENGTH}-char id>-${endpoint.name}-${presentation.name}" would be ${length} characters; the limit for a DNS label is ${DNS1123_LABEL_MAX}`,
      `endpoints[${index}].presentations[${j}].name`,
    );
  });
}
