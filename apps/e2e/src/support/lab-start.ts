import { setTimeout as sleep } from 'node:timers/promises';
import { expClient } from './exp-client.js';

/** One event of a lab's stream, with when the learner's client got it (epoch ms). */
export interface LabEvent {
  at: number;
  name: string;
  data: { status?: string; healthyTests?: number; healthy?: number; endpoint?: string; at?: string; estimatedReadyAt?: string; error?: boolean };
}

/** What a learner saw while one lab started: its stream's events, its health as GET answered meanwhile, where it ended. */
export interface LabStart {
  id: string;
  slug: string;
  requestedAt: number;
  events: LabEvent[];
  /** HealthyTests of each GET while the stream was open, in order. */
  polledHealth: number[];
  final: {
    Status: string;
    Error: boolean;
    FailureReason: string;
    PhaseTimes: Record<string, string>;
    EstimatedReadyAt: string;
    HealthyTests: number;
    TotalTests: number;
  };
}

/** Reads a server-sent event stream to its end, handing each event to `onEvent` as it comes. */
async function readStream(response: Response, onEvent: (name: string, data: LabEvent['data']) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const name = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (name && data) onEvent(name, JSON.parse(data) as LabEvent['data']);
    }
  }
}

/**
 * A learner at `ip` asks for a lab of `slug` and follows it as the front-end does — its event stream
 * until READY, an error or deletion — while also polling GET /exp/livelesson/{id} every `pollMs` for
 * its recorded health; then reads where it ended.
 */
export async function startLab(api: string, ip: string, slug: string, pollMs = 100): Promise<LabStart> {
  const exp = expClient(api, ip);
  const requestedAt = Date.now();
  const id = await exp.requestLesson(await exp.newSession(), slug, 0);
  const events: LabEvent[] = [];
  const polledHealth: number[] = [];
  const stream = await fetch(`${api}/exp/livelesson/${id}/events`, { headers: { 'x-forwarded-for': ip }, signal: AbortSignal.timeout(1_200_000) });
  if (stream.status !== 200) throw new Error(`event stream of ${id}: HTTP ${stream.status} ${await stream.text()}`);
  let open = true;
  const polling = (async () => {
    while (open) {
      const answer = await exp.get<{ HealthyTests: number }>(`/exp/livelesson/${id}`);
      if (answer.status === 200) polledHealth.push(answer.body.HealthyTests);
      await sleep(pollMs);
    }
  })();
  try {
    await readStream(stream, (name, data) => void events.push({ at: Date.now(), name, data }));
  } finally {
    open = false;
    await polling;
  }
  const final = (await exp.get<LabStart['final']>(`/exp/livelesson/${id}`)).body;
  return { id, slug, requestedAt, events, polledHealth, final };
}

/** The health the lab showed, in the order it was shown: each status event's healthyTests and each progress event's healthy. */
export const streamedHealth = (lab: LabStart): number[] => lab.events.flatMap((event) => event.data.healthyTests ?? event.data.healthy ?? []);

/** Whether the numbers never go down. */
export const neverDecreases = (values: readonly number[]): boolean => values.every((value, i) => i === 0 || value >= values[i - 1]);

/** The estimate the lab was given when it entered BOOTING (its stream's first BOOTING status). */
export const bootingEstimate = (lab: LabStart): string | undefined =>
  lab.events.find((event) => event.name === 'status' && event.data.status === 'BOOTING')?.data.estimatedReadyAt;

/** How far the BOOTING estimate was from READY, as a share of the time from BOOTING to READY. */
export function estimateError(lab: LabStart): number {
  const estimate = bootingEstimate(lab);
  const { bootingAt, readyAt } = lab.final.PhaseTimes;
  if (!estimate || !bootingAt || !readyAt) return Number.NaN;
  return Math.abs(Date.parse(estimate) - Date.parse(readyAt)) / (Date.parse(readyAt) - Date.parse(bootingAt));
}
