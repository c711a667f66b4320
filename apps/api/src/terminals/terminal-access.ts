import { LiveLessonStatus } from '@antidote/contracts';
import type { LiveLesson } from '@antidote/data';
import type { TerminalRequest } from './terminal-request.js';
import { TerminalCloseCode, TerminalRefusal } from './terminal.errors.js';

/** Port: the live lesson as recorded (the api's database). */
export type LiveLessonLookup = (id: string) => Promise<LiveLesson | undefined>;

/** Where the api logs in for the learner: the endpoint's address, SSH port and the image's credentials. */
export interface SshTarget {
  host: string;
  port: number;
  username: string;
  password: string;
}

const NO_SUCH_LAB = 'no such lab for this session';

/**
 * Whether this session may open a terminal to this endpoint of this lab, and where to: the lab must be
 * the session's own (another session's lab is refused exactly like a missing one), not failed or being
 * deleted, and the endpoint must have an SSH presentation (the one named, if any) and an address.
 */
export async function authorizeTerminal(lookup: LiveLessonLookup, request: TerminalRequest): Promise<SshTarget> {
  const lesson = await lookup(request.liveLessonId);
  if (!lesson || lesson.sessionId !== request.sessionId || lesson.deleteRequestedAt) throw new TerminalRefusal(TerminalCloseCode.forbidden, NO_SUCH_LAB);
  if (lesson.error) throw new TerminalRefusal(TerminalCloseCode.notReady, 'the lab failed to start');
  const endpoint = lesson.endpoints.find((candidate) => candidate.name === request.endpoint);
  const ssh = endpoint?.presentations.find(
    (presentation) => presentation.type === 'ssh' && (request.presentation === undefined || presentation.name === request.presentation),
  );
  if (!endpoint || !ssh) {
    const named = request.presentation === undefined ? request.endpoint : `${request.endpoint} (presentation ${request.presentation})`;
    throw new TerminalRefusal(TerminalCloseCode.badRequest, `the lab has no SSH endpoint named ${named}`);
  }
  if (!endpoint.host || lesson.status === LiveLessonStatus.INITIALIZED)
    throw new TerminalRefusal(TerminalCloseCode.notReady, `${endpoint.name} is not started yet`);
  return { host: endpoint.host, port: ssh.port, username: endpoint.sshUser, password: endpoint.sshPassword };
}
