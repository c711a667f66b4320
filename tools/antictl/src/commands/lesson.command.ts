import { CliErrorCodes } from '@antidote/contracts/error-codes';
import type { Command } from 'commander';
import { ApiClient, ApiError, type ExpLiveLesson } from '../api.client.js';
import { resolveTarget } from '../local-platform.js';
import { CliError, type Output } from '../output.js';

interface LessonOptions {
  api?: string;
  token?: string;
  session?: string;
}

const POLL_MS = 500;

const client = (options: LessonOptions): ApiClient => {
  const { api, token } = resolveTarget(options);
  return new ApiClient(api, token);
};

function stageOf(text: string): number {
  const stage = Number(text);
  if (text.trim() === '' || !Number.isInteger(stage) || stage < 0)
    throw new CliError(`stage must be a non-negative integer, not "${text}"`, 2, CliErrorCodes.badStage);
  return stage;
}

/** The lesson and stage, checked before anything is created: an unknown slug or stage leaves no session behind. */
async function checkLesson(api: ApiClient, slug: string, stage: number): Promise<void> {
  const lesson = await api.getLesson(slug).catch(async (error: unknown) => {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
    const known = ((await api.listLessons().catch(() => undefined))?.lessons ?? []).map((l) => l.Slug).sort();
    throw new CliError(`no lesson "${slug}" in the curriculum${known.length ? ` (lessons: ${known.join(', ')})` : ''}`, 1, CliErrorCodes.lessonNotFound);
  });
  const count = lesson.Stages.length;
  if (stage >= count) throw new CliError(`stage ${stage} is out of range: ${slug} has stages 0 to ${count - 1}`, 2, CliErrorCodes.stageOutOfRange);
}

function endpointLines(lesson: ExpLiveLesson): string[] {
  return Object.values(lesson.LiveEndpoints).map((endpoint) => {
    const presentations = endpoint.LivePresentations.map((p) => `${p.Type} ${p.Name} ${endpoint.Host}:${p.Port}`).join(', ');
    // The api gives device passwords to the admin token only (unless api.exposeDevicePasswords is on).
    const login = endpoint.SSHUser
      ? `  login ${endpoint.SSHUser}${endpoint.SSHPassword ? ` / ${endpoint.SSHPassword}` : ' (password: with the admin token)'}`
      : '';
    return `  ${endpoint.Name.padEnd(16)} ${presentations || `${endpoint.Host} ports ${endpoint.Ports.join(',')}`}${login}`;
  });
}

/** Polls the live lesson until READY (resolves) or an error (rejects with the reason), showing progress. */
async function follow(api: ApiClient, id: string, out: Output, timeoutMs: number): Promise<ExpLiveLesson> {
  const started = Date.now();
  let last = '';
  for (;;) {
    let lesson: ExpLiveLesson;
    try {
      lesson = await api.getLiveLesson(id);
    } catch (error) {
      out.endProgress();
      if (error instanceof ApiError && error.status === 412)
        throw new CliError(`live lesson ${id} failed: ${error.message.replace(/^API 412: /, '')}`, 1, CliErrorCodes.lessonFailed);
      throw error;
    }
    const elapsed = ((Date.now() - started) / 1000).toFixed(1);
    const line = `${id}  ${lesson.Status.padEnd(13)} healthy ${lesson.HealthyTests}/${lesson.TotalTests}  ${elapsed} s`;
    if (out.interactive || line.split('  ').slice(0, 2).join() !== last.split('  ').slice(0, 2).join()) out.progress(line);
    last = line;
    if (lesson.Status === 'READY') {
      out.endProgress();
      return lesson;
    }
    if (Date.now() - started > timeoutMs) {
      out.endProgress();
      throw new CliError(`live lesson ${id} is not READY after ${Math.round(timeoutMs / 1000)} s (status ${lesson.Status})`, 1, CliErrorCodes.timeout);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** `antictl lesson request|get|stage|kill|list`: live lessons through the api, as a learner's browser would. */
export function lessonCommand(program: Command, output: () => Output): void {
  const lesson = program
    .command('lesson')
    .description('request and manage live lessons through the API')
    .option('--api <url>', 'API base URL (default: ANTIDOTE_API, else the platform `antictl up` runs here, else http://127.0.0.1:8086)')
    .option('--token <token>', 'admin token, for list (default: ANTIDOTE_ADMIN_TOKEN, else the one `antictl up` made here)')
    .option('--session <id>', "the live lesson's session, for stage and kill without the admin token (`lesson request` prints it)");
  const options = (): LessonOptions => lesson.opts<LessonOptions>();

  lesson
    .command('request <slug>')
    .description('create a session and a live lesson, follow it to READY, print its endpoints')
    .option('--stage <n>', 'lesson stage', '0')
    .option('--timeout <seconds>', 'give up after', '600')
    .action(async (slug: string, flags: { stage: string; timeout: string }) => {
      const out = output();
      const api = client(options());
      const stage = stageOf(flags.stage);
      await checkLesson(api, slug, stage);
      const session = await api.createSession();
      const { id } = await api.requestLiveLesson(slug, session.ID, stage);
      out.line(`live lesson ${id} (session ${session.ID})`);
      const ready = await follow(api, id, out, Number(flags.timeout) * 1000);
      out.data({ ...ready, sessionId: session.ID }, () => [`${id} is READY at stage ${ready.CurrentStage}:`, ...endpointLines(ready)]);
    });

  lesson
    .command('get <id>')
    .description('show a live lesson')
    .action(async (id: string) => {
      const found = await client(options()).getLiveLesson(id);
      output().data(found, () => [
        `${found.ID}  ${found.LessonSlug}  stage ${found.CurrentStage}  ${found.Status}  healthy ${found.HealthyTests}/${found.TotalTests}`,
        ...endpointLines(found),
      ]);
    });

  lesson
    .command('stage <id> <n>')
    .description('move a READY live lesson to another stage and follow it back to READY')
    .action(async (id: string, n: string) => {
      const out = output();
      const api = client(options());
      const stage = stageOf(n);
      const current = await api.getLiveLesson(id);
      const session = await api.sessionOf(id, options().session, current);
      await checkLesson(api, current.LessonSlug, stage);
      await api.requestLiveLesson(current.LessonSlug, session, stage);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      const ready = await follow(api, id, out, 600_000);
      out.data(ready, () => [`${id} is READY at stage ${ready.CurrentStage}`]);
    });

  lesson
    .command('kill <id>')
    .description('delete a live lesson (its namespace and record)')
    .action(async (id: string) => {
      const result = await client(options()).killLiveLesson(id, options().session);
      output().data(result, () => [`${id} is being deleted`]);
    });

  lesson
    .command('list')
    .description('every live lesson (admin token)')
    .action(async () => {
      const lessons = await client(options()).listLiveLessons();
      output().data(lessons, () =>
        lessons.length ? lessons.map((l) => `${l.ID}  ${l.LessonSlug}  stage ${l.CurrentStage}  ${l.Status}${l.Error ? '  ERROR' : ''}`) : ['no live lessons'],
      );
    });
}
