import { AdmissionTicketEntity } from './admission-ticket.entity.js';
import { CollectionEntity } from './collection.entity.js';
import { CurriculumEntity } from './curriculum.entity.js';
import { ImageEntity } from './image.entity.js';
import { LessonEntity } from './lesson.entity.js';
import { LessonStartEntity } from './lesson-start.entity.js';
import { LiveLessonEntity, type StoredEndpoint } from './live-lesson.entity.js';
import { LiveSessionEntity } from './live-session.entity.js';
import { WarmPoolDemandEntity } from './warm-pool-demand.entity.js';
import { WarmPoolOverrideEntity } from './warm-pool-override.entity.js';

export type { StoredEndpoint };
export {
  AdmissionTicketEntity,
  CollectionEntity,
  CurriculumEntity,
  ImageEntity,
  LessonEntity,
  LessonStartEntity,
  LiveLessonEntity,
  LiveSessionEntity,
  WarmPoolDemandEntity,
  WarmPoolOverrideEntity,
};

export const entities = [
  CurriculumEntity,
  CollectionEntity,
  ImageEntity,
  LessonEntity,
  LiveSessionEntity,
  LiveLessonEntity,
  WarmPoolOverrideEntity,
  WarmPoolDemandEntity,
  LessonStartEntity,
  AdmissionTicketEntity,
];
