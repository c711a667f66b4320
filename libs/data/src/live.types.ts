import type { LiveLessonStatus, PhaseTimes, PresentationType, ReadinessCheck } from '@antidote/contracts';
import type { ConfigurationType, GuideType } from '@antidote/curriculum';

export interface LivePresentation {
  name: string;
  port: number;
  type: PresentationType;
  hepDomain: string;
}

export interface LiveEndpoint {
  name: string;
  /** Lesson order (pod creation order); the jupyter guide endpoint comes last. */
  position: number;
  /** Image slug, or a full image reference for the jupyter guide. */
  image: string;
  ports: number[];
  presentations: LivePresentation[];
  configurationType: ConfigurationType;
  configurationFile: string;
  sshUser: string;
  sshPassword: string;
  /** The Service ClusterIP, once the scheduler created it. */
  host?: string;
  /** The image's readiness check, copied when the row is written (absent: reachable means ready). */
  readiness?: ReadinessCheck;
  /** When the healthchecker first found it up during its lesson's start (absent: not yet). */
  upAt?: Date;
}

export interface LiveLesson {
  id: string;
  sessionId: string;
  antidoteId: string;
  lessonSlug: string;
  currentStage: number;
  guideType: GuideType;
  guideContents: string;
  guideDomain: string;
  status: LiveLessonStatus;
  error: boolean;
  failureReason?: string;
  healthyTests: number;
  totalTests: number;
  createdAt: Date;
  lastActiveAt: Date;
  updatedAt: Date;
  phaseTimes: PhaseTimes;
  /** The stage whose configuration last completed (undefined: none yet). */
  configuredStage?: number;
  deleteRequestedAt?: Date;
  claimedBy?: string;
  claimedUntil?: Date;
  /** An unclaimed warm-pool member: built by the scheduler for no learner (its session is a placeholder). */
  pool: boolean;
  /** When its start is expected to reach READY, from recent starts of its images (absent: no estimate). */
  estimatedReadyAt?: Date;
  endpoints: LiveEndpoint[];
}

/** Where a live lesson stands, without its endpoints and guide: what status events carry. */
export type LiveLessonState = Pick<
  LiveLesson,
  'id' | 'sessionId' | 'lessonSlug' | 'status' | 'error' | 'failureReason' | 'currentStage' | 'healthyTests' | 'totalTests' | 'phaseTimes' | 'estimatedReadyAt'
>;

/** What a status write returns (the state as written) and a state read finds: the state, with the pool flag and the update time. */
export type WrittenLiveLessonState = LiveLessonState & Pick<LiveLesson, 'pool' | 'updatedAt'>;

/** What a caller supplies to create a live lesson; the rest (status, tests, times, claims) the repository sets. */
export type NewLiveLesson = Pick<
  LiveLesson,
  'id' | 'sessionId' | 'antidoteId' | 'lessonSlug' | 'currentStage' | 'guideType' | 'guideContents' | 'guideDomain' | 'endpoints'
> &
  /** Defaults to now; `pool` to false. */
  Partial<Pick<LiveLesson, 'createdAt' | 'pool'>>;

export interface LiveSession {
  id: string;
  sourceIp: string;
  persistent: boolean;
  createdAt: Date;
  lastActiveAt: Date;
}

/** What a caller supplies to create a live session; `persistent` defaults to false, `createdAt` to now. */
export type NewLiveSession = Pick<LiveSession, 'id' | 'sourceIp'> & Partial<Pick<LiveSession, 'persistent' | 'createdAt'>>;

export interface LiveLessonFilter {
  sessionId?: string;
  status?: LiveLessonStatus;
  error?: boolean;
  /** Unclaimed warm-pool members (true) or not. */
  pool?: boolean;
}
