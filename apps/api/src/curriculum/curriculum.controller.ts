import { Controller, Get, Inject, Param } from '@nestjs/common';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { DataManager } from '@antidote/data';
import { validate } from '../http/validation.js';
import { slugParamSchema } from '../live-lessons/live-lesson.dto.js';
import { toExpCollection, toExpCurriculum } from '../lessons/lesson.mapper.js';
import { BUILD_INFO } from './build-info.js';

/** Collections, images, the curriculum record and the info endpoint: read-only views of the imported curriculum. */
@Controller('exp')
export class CurriculumController {
  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @InjectConfig() private readonly config: AntidoteConfig,
  ) {}

  @Get('collection')
  async collections(): Promise<{ collections: Record<string, unknown>[] }> {
    const [collections, lessons] = await Promise.all([this.data.curriculum.listCollections(), this.data.curriculum.listLessons()]);
    return { collections: collections.map((collection) => toExpCollection(collection, lessons)) };
  }

  @Get('collection/:slug')
  async collection(@Param() params: unknown): Promise<Record<string, unknown>> {
    const { slug } = validate(slugParamSchema, params, 'path');
    // A missing one is a NotFoundError, answered 404 by the exception filter; any other failure stays a 500.
    const collection = await this.data.curriculum.getCollection(slug);
    return toExpCollection(collection, await this.data.curriculum.listLessons());
  }

  /** `expImages`: image names by slug (no credentials). */
  @Get('image')
  async images(): Promise<{ items: Record<string, { Name: string }> }> {
    const images = await this.data.curriculum.listImages();
    return { items: Object.fromEntries(images.map((image) => [image.slug, { Name: image.slug }])) };
  }

  @Get('image/:slug')
  async image(@Param() params: unknown): Promise<{ Name: string }> {
    const { slug } = validate(slugParamSchema, params, 'path');
    const image = await this.data.curriculum.getImage(slug);
    return { Name: image.slug };
  }

  @Get('curriculum')
  async curriculum(): Promise<Record<string, unknown>> {
    return toExpCurriculum(await this.data.curriculum.getCurriculum());
  }

  @Get('antidoteinfo')
  info(): { buildSha: string; buildVersion: string; curriculumVersion: string } {
    return { buildSha: BUILD_INFO.sha, buildVersion: BUILD_INFO.version, curriculumVersion: this.config.curriculumVersion };
  }
}
