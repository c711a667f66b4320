import type { CurriculumMeta, Image, Lesson } from '@antidote/curriculum';
import { makeImage, makeLesson } from '@antidote/testing';
import { describe, expect, it } from 'vitest';
import { CurriculumSnapshot } from './repositories/curriculum-snapshot.js';

/** The curriculum tables as an import leaves them, and every read of them counted. */
class FakeCurriculum {
  lessons: Lesson[] = [makeLesson({ slug: 'one', name: 'One' })];
  images: Image[] = [makeImage()];
  importedAt: Date | null = new Date(1_000);
  reads = 0;
  /** Runs between the lessons' read and the images' read (an import landing mid-load). */
  betweenReads?: () => void;

  /** Another replica (or a tool) imports: new tables, a new record. */
  import(lessons: Lesson[], images: Image[] = this.images): void {
    this.lessons = lessons;
    this.images = images;
    this.importedAt = new Date((this.importedAt?.getTime() ?? 0) + 1_000);
  }

  getCurriculum = (): Promise<(CurriculumMeta & { importedAt: Date }) | null> => {
    this.reads++;
    return Promise.resolve(this.importedAt && ({ importedAt: this.importedAt } as CurriculumMeta & { importedAt: Date }));
  };
  listLessons = (): Promise<Lesson[]> => {
    this.reads++;
    const lessons = this.lessons;
    this.betweenReads?.();
    this.betweenReads = undefined;
    return Promise.resolve(lessons);
  };
  listImages = (): Promise<Image[]> => {
    this.reads++;
    return Promise.resolve(this.images);
  };
}

describe('the curriculum held in memory', () => {
  it('is read once per import: later lessons and images come from memory', async () => {
    const tables = new FakeCurriculum();
    const snapshot = new CurriculumSnapshot(tables);
    expect((await snapshot.lesson('one'))?.name).toBe('One');
    const afterLoad = tables.reads;
    expect(afterLoad).toBeGreaterThan(0);
    for (let i = 0; i < 5; i++) {
      const lesson = await snapshot.lesson('one');
      expect(await snapshot.imagesOf(lesson!)).toEqual({ images: new Map([['utility', makeImage()]]), missing: [] });
    }
    expect(tables.reads).toBe(afterLoad);
  });

  it('loads the new import when one is announced (refresh), and not before', async () => {
    const tables = new FakeCurriculum();
    const snapshot = new CurriculumSnapshot(tables);
    await snapshot.lesson('one');
    tables.import([makeLesson({ slug: 'one', name: 'One, revised' })]);
    expect((await snapshot.lesson('one'))?.name).toBe('One');
    await snapshot.refresh();
    expect((await snapshot.lesson('one'))?.name).toBe('One, revised');
  });

  it('finds an import nobody announced (another replica, a tool) by the curriculum record: on its check, and when a lesson or image is missing', async () => {
    const tables = new FakeCurriculum();
    const snapshot = new CurriculumSnapshot(tables);
    await snapshot.lesson('one');
    // Nothing changed: the check reads the record alone.
    const reads = tables.reads;
    await snapshot.check();
    expect(tables.reads).toBe(reads + 1);
    tables.import([makeLesson({ slug: 'one', name: 'One, revised' })]);
    await snapshot.check();
    expect((await snapshot.lesson('one'))?.name).toBe('One, revised');
    // A lesson only the newer import has.
    tables.import([...tables.lessons, makeLesson({ slug: 'two', endpoints: [] })]);
    expect((await snapshot.lesson('two'))?.slug).toBe('two');
    // An image only the newer import has.
    const frr = makeLesson({ slug: 'frr', endpoints: [{ ...makeLesson().endpoints[0], image: 'frr' }] });
    tables.import([...tables.lessons, frr], [...tables.images, makeImage({ slug: 'frr' })]);
    expect((await snapshot.imagesOf(frr)).missing).toEqual([]);
    // Missing everywhere: said missing.
    expect(await snapshot.lesson('nowhere')).toBeUndefined();
  });

  it('never mixes two imports: an import landing while it reads makes it read again', async () => {
    const tables = new FakeCurriculum();
    tables.betweenReads = () => tables.import([makeLesson({ slug: 'one', name: 'One, revised' })], [makeImage({ slug: 'utility', description: 'revised' })]);
    const snapshot = new CurriculumSnapshot(tables);
    expect((await snapshot.lesson('one'))?.name).toBe('One, revised');
    expect((await snapshot.imagesOf((await snapshot.lesson('one'))!)).images.get('utility')?.description).toBe('revised');
  });

  it('holds nothing after a failed load: the next question loads again', async () => {
    const tables = new FakeCurriculum();
    const snapshot = new CurriculumSnapshot(tables);
    const listLessons = tables.listLessons;
    tables.listLessons = () => Promise.reject(new Error('connection terminated'));
    await expect(snapshot.lesson('one')).rejects.toThrow('connection terminated');
    tables.listLessons = listLessons;
    expect((await snapshot.lesson('one'))?.name).toBe('One');
  });

  it('loads nothing before it is first asked (a check or an announcement alone reads nothing)', async () => {
    const tables = new FakeCurriculum();
    const snapshot = new CurriculumSnapshot(tables);
    await snapshot.refresh();
    expect(await snapshot.check()).toBeUndefined();
    expect(tables.reads).toBe(0);
  });
});
