/** What the lab page saw, step by step. */
export interface LabPageReport {
  prereqs: unknown;
  lessonPrereqs: unknown;
  collection: { Slug: string; Lessons: { Slug: string }[] };
  retriedAfter: string;
  id: string;
  /** Every answer of the polling loop, `<HTTP status> <Status> <CurrentStage>`. */
  polls: string[];
  stageChange: number;
  deleted: number;
}

/**
 * antidote-web's lab page, as plain browser JavaScript (it is run in the page, so it may use nothing
 * from outside): `fetch` with a JSON string body and no content type (a `text/plain` simple request),
 * the "Invalid session ID" retry with a new session, the polling loop of GET /exp/livelesson/{id}
 * until READY, a stage change and the kill sent as `application/json` (which need a preflight).
 */
export async function labPage({ api, slug }: { api: string; slug: string }): Promise<LabPageReport> {
  const read = async (response: Response): Promise<{ status: number; body: Record<string, unknown> }> => ({
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
  });
  const get = async (path: string) => read(await fetch(`${api}${path}`));
  const post = async (path: string, body: unknown, headers?: Record<string, string>) =>
    read(await fetch(`${api}${path}`, { method: 'POST', body: JSON.stringify(body), headers }));
  const polls: string[] = [];
  const untilReady = async (id: string, stage: number): Promise<void> => {
    for (let attempt = 0; attempt < 1200; attempt++) {
      const answer = await get(`/exp/livelesson/${id}`);
      polls.push(`${answer.status} ${String(answer.body.Status)} ${String(answer.body.CurrentStage)}`);
      if (answer.status !== 200) throw new Error(`polling answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      if (answer.body.Status === 'READY' && answer.body.CurrentStage === stage) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error('never READY');
  };

  const lesson = await get(`/exp/lesson/${slug}`);
  const lessonPrereqs = await get(`/exp/lesson/${slug}/prereqs`);
  const collection = await get(`/exp/collection/${String(lesson.body.Collection)}`);
  const stale = await post('/exp/livelesson', { lessonSlug: slug, sessionId: 'expiredsession', lessonStage: 0 });
  if (stale.status < 400 || !String(stale.body.message).includes('Invalid session ID'))
    throw new Error(`a stale session was not refused: ${JSON.stringify(stale)}`);
  const session = await post('/exp/livesession', {});
  const sessionId = String(session.body.ID);
  const requested = await post('/exp/livelesson', { lessonSlug: slug, sessionId, lessonStage: null });
  if (requested.status !== 200) throw new Error(`the lab request answered ${requested.status}: ${JSON.stringify(requested.body)}`);
  const id = String(requested.body.id);
  await untilReady(id, 0);
  const stageChange = await post('/exp/livelesson', { lessonSlug: slug, sessionId, lessonStage: 1 }, { 'Content-Type': 'application/json' });
  await untilReady(id, 1);
  const deleted = await fetch(`${api}/exp/livelesson/${id}?sessionId=${sessionId}`, { method: 'DELETE' });
  return {
    prereqs: lesson.body.Prereqs,
    lessonPrereqs: lessonPrereqs.body,
    collection: collection.body as LabPageReport['collection'],
    retriedAfter: String(stale.body.message),
    id,
    polls,
    stageChange: stageChange.status,
    deleted: deleted.status,
  };
}
