/**
 * The Antidote curriculum model: what `curriculum.meta.yaml`, `collection.meta.yaml`,
 * `image.meta.yaml` and `lesson.meta.yaml` describe (field names = the YAML keys), plus the fields
 * filled in at ingest (marked "ingest").
 */

import type { ReadinessCheck } from '@antidote/contracts';

export type { ReadinessCheck } from '@antidote/contracts';
export type Tier = 'prod' | 'ptr' | 'local';
export type ImageFlavor = 'legacy' | 'trusted' | 'untrusted';
export type GuideType = 'markdown' | 'jupyter';
export type ConfigurationType = '' | 'napalm' | 'python' | 'ansible';
export type PresentationType = 'http' | 'ssh';
export type LessonCategory = 'fundamentals' | 'tools' | 'workflows';
export type CollectionType = 'vendor' | 'community' | 'consultancy';

export interface CurriculumMeta {
  name: string;
  description: string;
  website: string;
  aVer: string;
  gitRoot: string;
}

export interface Collection {
  slug: string;
  title: string;
  image: string;
  website: string;
  contactEmail: string;
  briefDescription: string;
  longDescription: string;
  type: CollectionType;
  tier: Tier;
  /** ingest: path of the file, relative to the curriculum root */
  collectionFile: string;
}

export interface Image {
  slug: string;
  description: string;
  flavor: ImageFlavor;
  enableForwarding: boolean;
  /** Names of the Multus interfaces, in connection order (HEAD); empty → `net<i>`. */
  networkInterfaces: string[];
  sshUser: string;
  sshPassword: string;
  configUser: string;
  configPassword: string;
  /** Optional: how to tell an endpoint of this image is ready, not only reachable (a command over SSH, an HTTP status, a TCP banner). */
  readiness?: ReadinessCheck;
}

export interface LessonPresentation {
  name: string;
  port: number;
  type: PresentationType;
}

export interface LessonEndpoint {
  name: string;
  image: string;
  configurationType: ConfigurationType;
  /** ingest: base name of the configuration file found under `stage<N>/configs/` (last match walked) */
  configurationFile: string;
  /** ingest: per stage index, the configuration file's path relative to the lesson directory */
  configurationFiles: Record<number, string>;
  additionalPorts: number[];
  presentations: LessonPresentation[];
}

export interface LessonConnection {
  a: string;
  b: string;
  subnet: string;
}

export interface LessonAuthor {
  name: string;
  link: string;
}

export interface LessonStage {
  description: string;
  guideType: GuideType;
  stageVideo: string;
  /** ingest: contents of `stage<N>/guide.md` or `stage<N>/guide.ipynb` */
  guideContents: string;
}

export interface Lesson {
  slug: string;
  name: string;
  category: LessonCategory;
  diagram: string;
  video: string;
  tier: Tier;
  collection: string;
  description: string;
  shortDescription: string;
  prereqs: string[];
  tags: string[];
  stages: LessonStage[];
  endpoints: LessonEndpoint[];
  connections: LessonConnection[];
  authors: LessonAuthor[];
  readyDelay: number;
  /** ingest: path of `lesson.meta.yaml`, relative to the curriculum root */
  lessonFile: string;
  /** ingest: the lesson directory, relative to the curriculum root */
  lessonDir: string;
}

/** A whole curriculum as read from disk. */
export interface Curriculum {
  meta: CurriculumMeta;
  collections: Collection[];
  images: Image[];
  lessons: Lesson[];
}

/** Any stage uses a Jupyter lab guide. */
export const usesJupyterGuide = (lesson: Pick<Lesson, 'stages'>): boolean => lesson.stages.some((stage) => stage.guideType === 'jupyter');

/** Ports of an endpoint: presentation ports in order, then additional ports, first occurrence kept. */
export const endpointPorts = (endpoint: Pick<LessonEndpoint, 'presentations' | 'additionalPorts'>): number[] => [
  ...new Set([...endpoint.presentations.map((p) => p.port), ...endpoint.additionalPorts]),
];
