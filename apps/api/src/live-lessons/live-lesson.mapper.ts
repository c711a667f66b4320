import type { LiveLesson, LiveSession } from '@antidote/data';

/**
 * `expLiveLesson` of the original API (swagger field names). `revealSession`: the caller is an operator
 * (admin token); anyone else gets `SessionID` blank.
 */
export function toExpLiveLesson(lesson: LiveLesson, exposePasswords: boolean, revealSession = false): Record<string, unknown> {
  const endpoints: Record<string, unknown> = {};
  for (const endpoint of lesson.endpoints) {
    endpoints[endpoint.name] = {
      Name: endpoint.name,
      Image: endpoint.image,
      Ports: endpoint.ports,
      LivePresentations: endpoint.presentations.map((p) => ({ Name: p.name, Port: p.port, Type: p.type, HepDomain: p.hepDomain })),
      Host: endpoint.host ?? '',
      SSHUser: endpoint.sshUser,
      SSHPassword: exposePasswords ? endpoint.sshPassword : '',
    };
  }
  return {
    ID: lesson.id,
    // Never the session to a learner: anyone holding a live lesson id (a lab link) could otherwise act as
    // its session (kill its labs, request labs on its quota). Blank, so the field keeps the original's type.
    SessionID: revealSession ? lesson.sessionId : '',
    AntidoteID: lesson.antidoteId,
    LessonSlug: lesson.lessonSlug,
    LiveEndpoints: endpoints,
    CurrentStage: lesson.currentStage,
    GuideContents: lesson.guideContents,
    GuideType: lesson.guideType,
    GuideDomain: lesson.guideDomain,
    Status: lesson.status,
    Error: lesson.error,
    HealthyTests: lesson.healthyTests,
    TotalTests: lesson.totalTests,
    Diagram: '',
    Video: '',
    StageVideo: '',
  };
}

/** Seconds from `now` until the start is expected READY: 0 once it is READY or failed, or past its estimate. */
export const secondsLeft = (lesson: Pick<LiveLesson, 'status' | 'error' | 'estimatedReadyAt'>, now = Date.now()): number =>
  lesson.status === 'READY' || lesson.error || !lesson.estimatedReadyAt ? 0 : Math.max(0, Math.ceil((lesson.estimatedReadyAt.getTime() - now) / 1000));

/**
 * Ours, beside the original fields: failure reason, phase times, and when the start is expected READY —
 * as a time and as seconds left at the answer, so a client with a wrong clock still counts right
 * (front-ends ignore unknown fields).
 */
export const withDetails = (lesson: LiveLesson, body: Record<string, unknown>): Record<string, unknown> => ({
  ...body,
  FailureReason: lesson.failureReason ?? '',
  PhaseTimes: lesson.phaseTimes,
  EstimatedReadyAt: lesson.estimatedReadyAt?.toISOString() ?? '',
  EstimatedSecondsLeft: secondsLeft(lesson),
});

export const toExpLiveSession = (session: LiveSession): Record<string, unknown> => ({
  ID: session.id,
  SourceIP: session.sourceIp,
  Persistent: session.persistent,
});
