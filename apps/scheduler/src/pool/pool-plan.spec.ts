import { LiveLessonStatus } from '@antidote/contracts';
import { describe, expect, it } from 'vitest';
import { planPools, type PoolMemberFacts, type PoolPlan, type PoolTarget } from './pool-plan.js';

const now = new Date('2026-06-01T12:00:00Z');
const ago = (seconds: number): Date => new Date(now.getTime() - seconds * 1000);
const lessons = new Set(['alpha', 'beta']);

let next = 0;
function m(lessonSlug: string, ageSeconds: number, overrides: Partial<PoolMemberFacts> = {}): PoolMemberFacts {
  return {
    id: overrides.id ?? `m${next++}`,
    lessonSlug,
    status: LiveLessonStatus.READY,
    error: false,
    createdAt: ago(ageSeconds),
    deleting: false,
    stale: false,
    ...overrides,
  };
}

interface Case {
  pools: Record<string, PoolTarget>;
  members: PoolMemberFacts[];
  capacity?: { cap: number; used: number; waiting?: number };
  expected: { create: PoolPlan['create']; retire: [string, string][] };
}

const cases: [string, Case][] = [
  ['no pools configured, no members: nothing', { pools: {}, members: [], expected: { create: [], retire: [] } }],
  [
    'an empty pool fills up',
    { pools: { alpha: { size: 2, maxAge: 600 } }, members: [], expected: { create: [{ lessonSlug: 'alpha', count: 2 }], retire: [] } },
  ],
  [
    'a full pool (members still booting count) builds nothing',
    {
      pools: { alpha: { size: 2, maxAge: 600 } },
      members: [m('alpha', 10), m('alpha', 5, { status: LiveLessonStatus.BOOTING })],
      expected: { create: [], retire: [] },
    },
  ],
  [
    'a claimed member (gone from the pool) is replaced',
    { pools: { alpha: { size: 2, maxAge: 600 } }, members: [m('alpha', 10)], expected: { create: [{ lessonSlug: 'alpha', count: 1 }], retire: [] } },
  ],
  [
    'a READY member exactly maxAge old is recycled and replaced',
    {
      pools: { alpha: { size: 1, maxAge: 600 } },
      members: [m('alpha', 600, { id: 'old' })],
      expected: { create: [{ lessonSlug: 'alpha', count: 1 }], retire: [['old', 'max-age']] },
    },
  ],
  ['one second younger than maxAge stays', { pools: { alpha: { size: 1, maxAge: 600 } }, members: [m('alpha', 599)], expected: { create: [], retire: [] } }],
  ['maxAge 0 keeps members forever', { pools: { alpha: { size: 1, maxAge: 0 } }, members: [m('alpha', 999_999)], expected: { create: [], retire: [] } }],
  [
    'a member still booting past maxAge is not recycled (only READY ones are)',
    { pools: { alpha: { size: 1, maxAge: 60 } }, members: [m('alpha', 120, { status: LiveLessonStatus.BOOTING })], expected: { create: [], retire: [] } },
  ],
  [
    'a failed member is retired and replaced',
    {
      pools: { alpha: { size: 1, maxAge: 600 } },
      members: [m('alpha', 5, { id: 'bad', error: true })],
      expected: { create: [{ lessonSlug: 'alpha', count: 1 }], retire: [['bad', 'failed']] },
    },
  ],
  [
    'a member of a changed lesson is replaced',
    {
      pools: { alpha: { size: 1, maxAge: 600 } },
      members: [m('alpha', 5, { id: 'stale', stale: true })],
      expected: { create: [{ lessonSlug: 'alpha', count: 1 }], retire: [['stale', 'stale']] },
    },
  ],
  [
    'a member being deleted neither counts nor is retired again',
    {
      pools: { alpha: { size: 1, maxAge: 600 } },
      members: [m('alpha', 5, { deleting: true })],
      expected: { create: [{ lessonSlug: 'alpha', count: 1 }], retire: [] },
    },
  ],
  [
    'a shrunk pool retires its surplus, keeping READY members first, then the oldest',
    {
      pools: { alpha: { size: 1, maxAge: 600 } },
      members: [m('alpha', 50, { id: 'booting', status: LiveLessonStatus.BOOTING }), m('alpha', 30, { id: 'ready-old' }), m('alpha', 10, { id: 'ready-new' })],
      expected: {
        create: [],
        retire: [
          ['ready-new', 'surplus'],
          ['booting', 'surplus'],
        ],
      },
    },
  ],
  [
    'members of a pool no longer configured (or sized 0) are retired',
    {
      pools: { beta: { size: 0, maxAge: 600 } },
      members: [m('alpha', 5, { id: 'a' }), m('beta', 5, { id: 'b' })],
      expected: {
        create: [],
        retire: [
          ['a', 'unconfigured'],
          ['b', 'unconfigured'],
        ],
      },
    },
  ],
  ['a pool of a lesson the curriculum lacks builds nothing', { pools: { gamma: { size: 3, maxAge: 600 } }, members: [], expected: { create: [], retire: [] } }],
  [
    'capacity bounds the builds, pools served in config order',
    {
      pools: { alpha: { size: 3, maxAge: 600 }, beta: { size: 2, maxAge: 600 } },
      members: [],
      capacity: { cap: 10, used: 6 },
      expected: {
        create: [
          { lessonSlug: 'alpha', count: 3 },
          { lessonSlug: 'beta', count: 1 },
        ],
        retire: [],
      },
    },
  ],
  [
    'at capacity nothing is built',
    { pools: { alpha: { size: 3, maxAge: 600 } }, members: [], capacity: { cap: 5, used: 7 }, expected: { create: [], retire: [] } },
  ],
  [
    'cap 0 means unlimited',
    {
      pools: { alpha: { size: 3, maxAge: 600 } },
      members: [],
      capacity: { cap: 0, used: 10_000 },
      expected: { create: [{ lessonSlug: 'alpha', count: 3 }], retire: [] },
    },
  ],
  [
    'learners waiting in line come first: nothing is built, idle READY members (oldest first) make room for them',
    {
      pools: { alpha: { size: 2, maxAge: 600 }, beta: { size: 2, maxAge: 600 } },
      members: [
        m('alpha', 50, { id: 'a-old' }),
        m('alpha', 10, { id: 'a-new' }),
        m('beta', 30, { id: 'b-mid' }),
        m('beta', 60, { id: 'b-booting', status: LiveLessonStatus.BOOTING }),
      ],
      capacity: { cap: 10, used: 10, waiting: 2 },
      expected: {
        create: [],
        retire: [
          ['a-old', 'learners-waiting'],
          ['b-mid', 'learners-waiting'],
        ],
      },
    },
  ],
  [
    'learners waiting while capacity is free (before the next admission pass): no member is retired, none built',
    { pools: { alpha: { size: 2, maxAge: 600 } }, members: [m('alpha', 50)], capacity: { cap: 10, used: 7, waiting: 2 }, expected: { create: [], retire: [] } },
  ],
];

describe('planPools', () => {
  it.each(cases)('%s', (_name, { pools, members, capacity, expected }) => {
    const plan = planPools({ pools, members, lessons, now, capacity: capacity ?? { cap: 0, used: 0 } });
    expect({ create: plan.create, retire: plan.retire.map((r) => [r.id, r.reason]) }).toEqual(expected);
  });
});
