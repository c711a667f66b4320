import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { z } from 'zod';
import { DataManager } from '@antidote/data';
import { notFound } from '../http/gateway.error.js';
import { validate } from '../http/validation.js';
import { slugParamSchema } from '../live-lessons/live-lesson.dto.js';
import { toExpLesson } from './lesson.mapper.js';

const listQuerySchema = z.object({ Category: z.string().max(64).optional() }).strict();

@Controller('exp/lesson')
export class LessonController {
  constructor(@Inject(DataManager) private readonly data: DataManager) {}

  @Get()
  async list(@Query() query: unknown): Promise<{ lessons: Record<string, unknown>[] }> {
    const { Category } = validate(listQuerySchema, query, 'query');
    const lessons = await this.data.curriculum.listLessons();
    return { lessons: lessons.filter((lesson) => !Category || lesson.category === Category).map(toExpLesson) };
  }

  @Get(':slug')
  async get(@Param() params: unknown): Promise<Record<string, unknown>> {
    const { slug } = validate(slugParamSchema, params, 'path');
    const lesson = await this.data.curriculum.findLesson(slug);
    if (!lesson) throw notFound(`Couldn't find lesson slug '${slug}'`);
    return toExpLesson(lesson);
  }

  /** Every prerequisite, transitively, nearest first (the original's GetAllLessonPrereqs). */
  @Get(':slug/prereqs')
  async prereqs(@Param() params: unknown): Promise<{ prereqs: string[] }> {
    const { slug } = validate(slugParamSchema, params, 'path');
    const lessons = new Map((await this.data.curriculum.listLessons()).map((lesson) => [lesson.slug, lesson]));
    const root = lessons.get(slug);
    if (!root) throw notFound(`Couldn't find lesson slug '${slug}'`);
    const seen = new Set<string>();
    const queue = [...root.prereqs];
    while (queue.length > 0) {
      const next = queue.shift()!;
      if (seen.has(next) || next === slug) continue;
      seen.add(next);
      queue.push(...(lessons.get(next)?.prereqs ?? []));
    }
    return { prereqs: [...seen] };
  }
}
