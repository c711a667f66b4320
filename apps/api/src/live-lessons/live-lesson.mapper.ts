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

/** Ours, beside the original fields: failure reason and phase times (front-ends ignore unknown fields). */
export const withDetails = (lesson: LiveLesson, body: Record<string, unknown>): Record<string, unknown> => ({
  ...body,
  FailureReason: lesson.failureReason ?? '',
  PhaseTimes: lesson.phaseTimes,
});

/** A status event as an SSE client of the live lesson sees it: the row's state, without the owning session. */
export const toStreamStatus = <T extends { sessionId?: string }>({ sessionId: _session, ...status }: T): Omit<T, 'sessionId'> => status;

export const toExpLiveSession = (session: LiveSession): Record<string, unknown> => ({ ID: session.id, SourceIP: session.sourceIp, Persistent: session.persistent });
