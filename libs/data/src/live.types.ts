import type { LiveLessonStatus, PhaseTimes, PresentationType } from '@antidote/contracts';
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
  endpoints: LiveEndpoint[];
}

export interface NewLiveLesson {
  id: string;
  sessionId: string;
  antidoteId: string;
  lessonSlug: string;
  currentStage: number;
  guideType: GuideType;
  guideContents: string;
  guideDomain: string;
  endpoints: LiveEndpoint[];
  /** Defaults to now. */
  createdAt?: Date;
}

export interface LiveSession {
  id: string;
  sourceIp: string;
  persistent: boolean;
  createdAt: Date;
  lastActiveAt: Date;
}

export interface NewLiveSession {
  id: string;
  sourceIp: string;
  persistent?: boolean;
  createdAt?: Date;
}

export interface LiveLessonFilter {
  sessionId?: string;
  status?: LiveLessonStatus;
  error?: boolean;
}
