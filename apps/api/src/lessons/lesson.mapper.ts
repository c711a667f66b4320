import type { Collection, CurriculumMeta, Lesson } from '@antidote/curriculum';

export function toExpLesson(lesson: Lesson): Record<string, unknown> {
  return {
    Slug: lesson.slug,
    Stages: lesson.stages.map((stage) => ({ Description: stage.description, GuideType: stage.guideType, StageVideo: stage.stageVideo })),
    Name: lesson.name,
    Endpoints: lesson.endpoints.map((endpoint) => ({
      Name: endpoint.name,
      Image: endpoint.image,
      ConfigurationType: endpoint.configurationType,
      AdditionalPorts: endpoint.additionalPorts,
      Presentations: endpoint.presentations.map((p) => ({ Name: p.name, Port: p.port, Type: p.type })),
      Host: '',
    })),
    Connections: lesson.connections.map((connection) => ({ A: connection.a, B: connection.b })),
    Authors: lesson.authors.map((author) => ({ Name: author.name, Link: author.link })),
    Category: lesson.category,
    Diagram: lesson.diagram,
    Video: lesson.video,
    Tier: lesson.tier,
    Prereqs: lesson.prereqs,
    Tags: lesson.tags,
    Collection: lesson.collection,
    Description: lesson.description,
    ShortDescription: lesson.shortDescription,
    LessonFile: lesson.lessonFile,
    LessonDir: lesson.lessonDir,
    ReadyDelay: lesson.readyDelay,
  };
}

/**
 * `expCollection`. A collection without lessons has no `Lessons` at all, as the original's gateway left
 * an empty list out: antidote-web shows "Coming Soon!" only then (an empty list renders an empty box).
 */
export function toExpCollection(collection: Collection, lessons: readonly Lesson[]): Record<string, unknown> {
  const summaries = lessons
    .filter((lesson) => lesson.collection === collection.slug)
    .map((lesson) => ({ Slug: lesson.slug, Name: lesson.name, Description: lesson.description }));
  return {
    Slug: collection.slug,
    Title: collection.title,
    Image: collection.image,
    Website: collection.website,
    ContactEmail: collection.contactEmail,
    BriefDescription: collection.briefDescription,
    LongDescription: collection.longDescription,
    Type: collection.type,
    Tier: collection.tier,
    CollectionFile: collection.collectionFile,
    ...(summaries.length > 0 ? { Lessons: summaries } : {}),
  };
}

export const toExpCurriculum = (meta: CurriculumMeta | null): Record<string, unknown> => ({
  Name: meta?.name ?? '',
  Description: meta?.description ?? '',
  Website: meta?.website ?? '',
  AVer: meta?.aVer ?? '',
  GitRoot: meta?.gitRoot ?? '',
});
