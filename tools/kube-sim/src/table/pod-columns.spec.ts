import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/object.js';
import { humanDuration } from './age.js';
import { podCells } from './pod-columns.js';

const NOW = Date.parse('2026-01-01T00:10:00Z');
const pod = (status: Record<string, unknown>, extra: Partial<KubeObject['metadata']> = {}, initContainers = 0): KubeObject => ({
  metadata: { name: 'p', creationTimestamp: '2026-01-01T00:00:00Z', ...extra },
  spec: { containers: [{ name: 'c' }], initContainers: Array.from({ length: initContainers }, (_, i) => ({ name: `i${i}` })) },
  status,
});
const running = { ready: true, restartCount: 0, state: { running: {} } };

describe('podCells (READY, STATUS, RESTARTS as the API server prints them)', () => {
  it.each([
    ['pending, no statuses', pod({ phase: 'Pending' }), ['0/1', 'Pending', '0']],
    ['running and ready', pod({ phase: 'Running', containerStatuses: [running] }), ['1/1', 'Running', '0']],
    [
      'waiting reason wins',
      pod({ phase: 'Pending', containerStatuses: [{ state: { waiting: { reason: 'ImagePullBackOff' } } }] }),
      ['0/1', 'ImagePullBackOff', '0'],
    ],
    [
      'crash loop with the last restart age',
      pod({
        phase: 'Running',
        containerStatuses: [
          {
            restartCount: 3,
            state: { waiting: { reason: 'CrashLoopBackOff' } },
            lastState: { terminated: { exitCode: 1, finishedAt: '2026-01-01T00:09:20Z' } },
          },
        ],
      }),
      ['0/1', 'CrashLoopBackOff', '3 (40s ago)'],
    ],
    ['init container running', pod({ phase: 'Pending', initContainerStatuses: [{ state: { running: {} } }] }, {}, 1), ['0/1', 'Init:0/1', '0']],
    [
      'init container failed',
      pod({ phase: 'Pending', initContainerStatuses: [{ state: { terminated: { exitCode: 1, reason: 'Error' } } }] }, {}, 1),
      ['0/1', 'Init:Error', '0'],
    ],
    [
      'completed job pod',
      pod({ phase: 'Succeeded', containerStatuses: [{ state: { terminated: { exitCode: 0, reason: 'Completed' } } }] }),
      ['0/1', 'Completed', '0'],
    ],
    ['being deleted', pod({ phase: 'Running', containerStatuses: [running] }, { deletionTimestamp: '2026-01-01T00:09:00Z' }), ['1/1', 'Terminating', '0']],
  ])('%s', (_name, object, cells) => {
    expect(podCells(object, NOW).slice(1, 4)).toEqual(cells);
  });

  it('ages like kubectl', () => {
    expect([45_000, 150_000, 600_000, 3 * 3600_000 + 60_000, 50 * 3600_000, 400 * 86_400_000].map(humanDuration)).toEqual([
      '45s',
      '2m30s',
      '10m',
      '3h1m',
      '2d2h',
      '400d',
    ]);
  });
});
