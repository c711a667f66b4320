import type { QueueSummary } from '@antidote/contracts';
import type { Command } from 'commander';
import { ApiClient } from '../api.client.js';
import { resolveTarget } from '../local-platform.js';
import type { Output } from '../output.js';

const seconds = (value: number | undefined): string => (value === undefined ? '?' : value < 120 ? `${value} s` : `${Math.round(value / 60)} min`);

/** The summary line, then one line per waiting request, next first. */
export function queueLines(queue: QueueSummary): string[] {
  const { capacity, lastHour } = queue;
  const cap = capacity.max > 0 ? `${capacity.holding} of ${capacity.max} labs in use` : `${capacity.holding} labs in use (no cap)`;
  const hour = `last hour: ${lastHour.admittedFromQueue} admitted from the line, wait p50 ${seconds(lastHour.waitP50Seconds)}, p95 ${seconds(lastHour.waitP95Seconds)}, ${lastHour.abandoned} abandoned`;
  const lines = [`${cap}; ${queue.waiting} waiting (at most ${queue.maxQueued}); ${hour}`];
  for (const lab of queue.line) {
    lines.push(
      `${String(lab.position).padStart(4)}  ${lab.liveLessonId.padEnd(12)} ${lab.lessonSlug.padEnd(28)} ${lab.client.padEnd(20)} waiting ${seconds(lab.waitingSeconds).padEnd(7)} starts in about ${seconds(lab.estimatedWaitSeconds).padEnd(7)} seen ${seconds(lab.lastSeenSecondsAgo)} ago`,
    );
  }
  return lines;
}

/** `antictl queue`: the waiting room (`scheduler.maxLiveLessons` reached), through the api's admin route. */
export function queueCommand(program: Command, output: () => Output): void {
  program
    .command('queue')
    .description("the waiting room: capacity in use, each request waiting (place, address, wait, estimate), the last hour's waits and abandonments")
    .option('--api <url>', 'API base URL (default: ANTIDOTE_API, else the platform `antictl up` runs here, else http://127.0.0.1:8086)')
    .option('--token <token>', 'admin token (default: ANTIDOTE_ADMIN_TOKEN, else the one `antictl up` made here)')
    .action(async (options: { api?: string; token?: string }) => {
      const { api, token } = resolveTarget(options);
      const queue = await new ApiClient(api, token).queue();
      output().data(queue, () => queueLines(queue));
    });
}
