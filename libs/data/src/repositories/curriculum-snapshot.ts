import type { Image, Lesson } from '@antidote/curriculum';
import type { CurriculumRepository } from './curriculum.repository.js';

/** One imported curriculum as held in memory: its lessons and images by slug. */
export interface HeldCurriculum {
  /** Which import it is (the curriculum record's time, epoch ms), or null when none was imported. */
  importedAt: number | null;
  lessons: ReadonlyMap<string, Lesson>;
  images: ReadonlyMap<string, Image>;
}

/** The images of a lesson's endpoints among `held`, and the endpoints whose image is not there. */
function imagesIn(held: ReadonlyMap<string, Image>, lesson: Pick<Lesson, 'endpoints'>) {
  const images = new Map<string, Image>();
  for (const { image } of lesson.endpoints) {
    const found = held.get(image);
    if (found) images.set(image, found);
  }
  const missing = lesson.endpoints.filter((endpoint) => !images.has(endpoint.image)).map((endpoint) => ({ endpoint: endpoint.name, image: endpoint.image }));
  return { images, missing };
}

/** Loads tried when an import lands while the curriculum is being read (it is read again, whole). */
const LOAD_ATTEMPTS = 3;

/**
 * The curriculum held in memory, one import at a time: it changes only on import, so the lessons and
 * images a request needs are read once per import, not once per request. Loaded on first use; loaded
 * again when an import is announced (`reload`), and when the curriculum record says another import
 * landed (`check`: a periodic look and a lesson not found). What it hands out is shared: never mutated.
 */
export class CurriculumSnapshot {
  private held?: Promise<HeldCurriculum>;
  private loads = 0;

  constructor(private readonly curriculum: Pick<CurriculumRepository, 'getCurriculum' | 'listLessons' | 'listImages'>) {}

  /** The lesson of the current import; a slug it lacks is looked for in a newer import (if one landed) before it is said missing. */
  async lesson(slug: string): Promise<Lesson | undefined> {
    return (await this.current()).lessons.get(slug) ?? (await this.check())?.lessons.get(slug);
  }

  /** As CurriculumRepository.imagesOf, from the import held: the images of the lesson's endpoints, and the endpoints whose image it lacks. */
  async imagesOf(lesson: Pick<Lesson, 'endpoints'>): Promise<{ images: Map<string, Image>; missing: { endpoint: string; image: string }[] }> {
    const found = imagesIn((await this.current()).images, lesson);
    if (found.missing.length === 0) return found;
    // An image it lacks: a newer import may have it.
    const newer = await this.check();
    return newer ? imagesIn(newer.images, lesson) : found;
  }

  /** The import held, loaded now if none is. */
  current(): Promise<HeldCurriculum> {
    return this.held ?? this.reload();
  }

  /** Reads the curriculum again (an import was announced); every question from now on gets the new one. A failed load leaves nothing held: the next question loads. */
  reload(): Promise<HeldCurriculum> {
    const load = ++this.loads;
    const loading = this.load();
    this.held = loading;
    loading.catch(() => {
      if (this.loads === load) this.held = undefined;
    });
    return loading;
  }

  /** An import announced: loaded again if one is held (else the first question loads it). */
  async refresh(): Promise<void> {
    if (this.held) await this.reload();
  }

  /**
   * Compares the import held with the curriculum record (one narrow read) and loads again if another
   * import landed — one nobody announced, or whose announcement was lost. Nothing held: nothing to do.
   */
  async check(): Promise<HeldCurriculum | undefined> {
    if (!this.held) return undefined;
    const held = await this.held.catch(() => undefined);
    const record = await this.curriculum.getCurriculum();
    const importedAt = record ? record.importedAt.getTime() : null;
    return held && held.importedAt === importedAt ? held : this.reload();
  }

  private async load(): Promise<HeldCurriculum> {
    for (let attempt = 1; ; attempt++) {
      const before = await this.curriculum.getCurriculum();
      const lessons = await this.curriculum.listLessons();
      const images = await this.curriculum.listImages();
      const after = await this.curriculum.getCurriculum();
      const importedAt = after ? after.importedAt.getTime() : null;
      // An import between the first and the last read: what was read may mix two imports; read again.
      if ((before ? before.importedAt.getTime() : null) === importedAt || attempt >= LOAD_ATTEMPTS)
        return {
          importedAt,
          lessons: new Map(lessons.map((lesson) => [lesson.slug, lesson])),
          images: new Map(images.map((image) => [image.slug, image])),
        };
    }
  }
}
