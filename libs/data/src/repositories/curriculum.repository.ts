import { inTransaction } from '../transaction.js';
import type { DataSource, EntityManager } from 'typeorm';
import type { Collection, Curriculum, CurriculumMeta, Image, Lesson } from '@antidote/curriculum';
import { NotFoundError } from '../data.errors.js';
import { selectEntities } from '../sql.js';
import { CollectionEntity, CurriculumEntity, ImageEntity, LessonEntity } from '../entities/index.js';

const CURRICULUM_ID = 1;
const plain = <T extends object>(entity: T): T => ({ ...entity });
/** An image as the curriculum has it: no `readiness` key when it declares none. */
const plainImage = ({ readiness, ...image }: ImageEntity): Image => ({ ...image, ...(readiness ? { readiness } : {}) }) as Image;

/** Curriculum, collections, images and lessons (written by imports, read by everyone). */
export class CurriculumRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly now: () => Date,
  ) {}

  /** Upserts by slug: a duplicate slug replaces the earlier record (original semantics). */
  async insertImages(images: readonly Image[], manager: EntityManager = this.dataSource.manager): Promise<void> {
    if (images.length > 0)
      await manager.save(
        ImageEntity,
        images.map((image) => manager.create(ImageEntity, { ...image, readiness: image.readiness ?? null })),
        { chunk: 200 },
      );
  }

  async insertCollections(collections: readonly Collection[], manager: EntityManager = this.dataSource.manager): Promise<void> {
    if (collections.length > 0)
      await manager.save(
        CollectionEntity,
        collections.map((c) => manager.create(CollectionEntity, c)),
        { chunk: 200 },
      );
  }

  async insertLessons(lessons: readonly Lesson[], manager: EntityManager = this.dataSource.manager): Promise<void> {
    if (lessons.length > 0)
      await manager.save(
        LessonEntity,
        lessons.map((lesson) => manager.create(LessonEntity, lesson)),
        { chunk: 100 },
      );
  }

  async listImages(): Promise<Image[]> {
    return (await this.dataSource.manager.find(ImageEntity, { order: { slug: 'ASC' } })).map(plainImage);
  }

  async listCollections(): Promise<Collection[]> {
    return (await this.dataSource.manager.find(CollectionEntity, { order: { slug: 'ASC' } })).map((c) => plain(c) as Collection);
  }

  async listLessons(): Promise<Lesson[]> {
    return (await this.dataSource.manager.find(LessonEntity, { order: { slug: 'ASC' } })).map((lesson) => plain(lesson) as Lesson);
  }

  async getImage(slug: string): Promise<Image> {
    const image = await this.dataSource.manager.findOneBy(ImageEntity, { slug });
    if (!image) throw new NotFoundError(`Unable to find image ${slug}`);
    return plainImage(image);
  }

  /**
   * The images of a lesson's endpoints by slug, in one query, and the endpoints whose image is not in
   * the curriculum (the api refuses such a lesson, the scheduler fails it).
   */
  async imagesOf(lesson: Pick<Lesson, 'endpoints'>): Promise<{ images: Map<string, Image>; missing: { endpoint: string; image: string }[] }> {
    const slugs = [...new Set(lesson.endpoints.map((endpoint) => endpoint.image))];
    const found = slugs.length > 0 ? await selectEntities(this.dataSource, ImageEntity, 'slug IN (:...slugs)', { slugs }) : [];
    const images = new Map(found.map((image) => [image.slug, plainImage(image)]));
    const missing = lesson.endpoints.filter((endpoint) => !images.has(endpoint.image)).map((endpoint) => ({ endpoint: endpoint.name, image: endpoint.image }));
    return { images, missing };
  }

  async getCollection(slug: string): Promise<Collection> {
    const collection = await this.dataSource.manager.findOneBy(CollectionEntity, { slug });
    if (!collection) throw new NotFoundError(`Unable to find collection ${slug}`);
    return plain(collection) as Collection;
  }

  async getLesson(slug: string): Promise<Lesson> {
    const lesson = await this.findLesson(slug);
    if (!lesson) throw new NotFoundError(`Unable to find lesson ${slug}`);
    return lesson;
  }

  async findLesson(slug: string): Promise<Lesson | undefined> {
    const [lesson] = await selectEntities(this.dataSource, LessonEntity, 'slug = :slug', { slug });
    return lesson ? (plain(lesson) as Lesson) : undefined;
  }

  async setCurriculum(meta: CurriculumMeta, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.save(CurriculumEntity, manager.create(CurriculumEntity, { ...meta, id: CURRICULUM_ID, importedAt: this.now() }));
  }

  /** The curriculum record, or null when nothing was ever imported. */
  async getCurriculum(): Promise<(CurriculumMeta & { importedAt: Date }) | null> {
    const record = await this.dataSource.manager.findOneBy(CurriculumEntity, { id: CURRICULUM_ID });
    if (!record) return null;
    const { id: _id, ...meta } = record;
    return meta;
  }

  /**
   * Replaces the whole curriculum in one transaction: on any failure the previous curriculum stays
   * exactly as it was.
   */
  async replaceCurriculum(curriculum: Curriculum): Promise<void> {
    await inTransaction(this.dataSource, async (manager) => {
      for (const entity of [LessonEntity, ImageEntity, CollectionEntity, CurriculumEntity]) {
        await manager.createQueryBuilder().delete().from(entity).execute();
      }
      await this.setCurriculum(curriculum.meta, manager);
      await this.insertCollections(curriculum.collections, manager);
      await this.insertImages(curriculum.images, manager);
      await this.insertLessons(curriculum.lessons, manager);
    });
  }
}
