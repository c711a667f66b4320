import { describe, expect, it } from 'vitest';
import { queueLines } from './queue.command.js';

describe('antictl queue output', () => {
  it('prints capacity, the line next first and the last hour, in seconds or minutes', () => {
    const lines = queueLines({
      capacity: { max: 5, holding: 5 },
      maxQueued: 15,
      waiting: 2,
      lastHour: { admittedFromQueue: 12, waitP50Seconds: 40, waitP95Seconds: 300, abandoned: 1 },
      line: [
        {
          position: 1,
          liveLessonId: 'abcdef0123',
          lessonSlug: 'linux-basics',
          client: '127.0.9.2',
          waitingSeconds: 35,
          estimatedWaitSeconds: 20,
          lastSeenSecondsAgo: 1,
        },
        { position: 2, liveLessonId: 'bcdefa0123', lessonSlug: 'web-services', client: '127.0.9.3', waitingSeconds: 30, lastSeenSecondsAgo: 4 },
      ],
    });
    expect(lines[0]).toBe('5 of 5 labs in use; 2 waiting (at most 15); last hour: 12 admitted from the line, wait p50 40 s, p95 5 min, 1 abandoned');
    expect(lines[1]).toMatch(/^ {3}1 {2}abcdef0123 +linux-basics +127\.0\.9\.2 +waiting 35 s +starts in about 20 s +seen 1 s ago$/);
    expect(lines[2]).toMatch(/starts in about \? +seen 4 s ago$/);
  });

  it('says when there is no cap and nothing is known yet', () => {
    const [line] = queueLines({ capacity: { max: 0, holding: 3 }, maxQueued: 500, waiting: 0, lastHour: { admittedFromQueue: 0, abandoned: 0 }, line: [] });
    expect(line).toBe('3 labs in use (no cap); 0 waiting (at most 500); last hour: 0 admitted from the line, wait p50 ?, p95 ?, 0 abandoned');
  });
});
