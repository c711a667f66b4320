import type { Collection, Image, Lesson, Tier } from '../curriculum.model.js';
import type { ProblemList } from '../problem.js';

interface Located<T> {
  file: string;
  value: T;
}

export interface ReferenceInput {
  collections: Located<Collection>[];
  images: Located<Image>[];
  lessons: Lesson[];
  keptCollections: Collection[];
  keptLessons: Lesson[];
  tier: Tier;
  instanceId?: string;
}

/** Generated live lesson ids are 10 characters. */
const LIVE_LESSON_ID = 10;

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
 * prerequisites among the imported lessons (reference §2.3 rule 8), and names that will not fit a DNS label.
 */
export function checkReferences(input: ReferenceInput, problems: ProblemList): void {
  duplicates(input.collections, (c) => c.value.slug, (c) => c.file, 'collection', problems);
  duplicates(input.images, (i) => i.value.slug, (i) => i.file, 'image', problems);
  duplicates(input.lessons, (l) => l.slug, (l) => l.lessonFile, 'lesson', problems);
  const images = new Set(input.images.map((image) => image.value.slug));
  const allCollections = new Set(input.collections.map((c) => c.value.slug));
  const keptCollections = new Set(input.keptCollections.map((c) => c.slug));
  const allLessons = new Map(input.lessons.map((lesson) => [lesson.slug, lesson]));
  const kept = new Set(input.keptLessons.map((lesson) => lesson.slug));
  for (const lesson of input.keptLessons) {
    const file = lesson.lessonFile;
    lesson.endpoints.forEach((endpoint, i) => {
      if (!images.has(endpoint.image)) problems.add(file, 'unknown-image', `endpoint "${endpoint.name}" uses image "${endpoint.image}", which is not in images/`, `endpoints[${i}].image`);
      endpoint.presentations.forEach((presentation, j) => {
        if (!input.instanceId) return;
        const label = `${input.instanceId}-${'x'.repeat(LIVE_LESSON_ID)}-${endpoint.name}-${presentation.name}`;
        if (label.length > 63) {
          problems.warn(file, 'long-name', `"<instanceId>-<id>-${endpoint.name}-${presentation.name}" is ${label.length} characters; its HEP domain label will be shortened with a hash to fit 63`, `endpoints[${i}].presentations[${j}].name`);
        }
      });
    });
    if (lesson.collection && !keptCollections.has(lesson.collection)) {
      const why = allCollections.has(lesson.collection) ? `is below the configured tier "${input.tier}"` : 'does not exist';
      problems.add(file, 'unknown-collection', `collection "${lesson.collection}" ${why}`, 'collection');
    }
    lesson.prereqs.forEach((prereq, i) => {
      if (kept.has(prereq)) return;
      const other = allLessons.get(prereq);
      const why = other ? ` (it exists, but its tier "${other.tier}" is below the configured tier "${input.tier}")` : '';
      problems.add(file, 'unknown-prereq', `Lesson ${lesson.slug} listed an unknown prereq: ${prereq}${why}`, `prereqs[${i}]`);
    });
  }
}
