import { LiveLessonStatus } from '@antidote/contracts';

/** One lesson's pool as configured (`warmPools.<slug>`). */
export interface PoolTarget {
  size: number;
  /** Seconds a READY member may wait unclaimed (0 = forever). */
  maxAge: number;
}

/** What the planner needs to know of one unclaimed member. */
export interface PoolMemberFacts {
  id: string;
  lessonSlug: string;
  status: LiveLessonStatus;
  error: boolean;
  createdAt: Date;
  /** Its deletion is recorded already (it still holds capacity until it is gone). */
  deleting: boolean;
  /** Built from a lesson the curriculum has changed since. */
  stale: boolean;
}

export type RetireReason = 'unconfigured' | 'failed' | 'stale' | 'max-age' | 'surplus' | 'learners-waiting';

export interface PoolPlanInput {
  pools: Readonly<Record<string, PoolTarget>>;
  members: readonly PoolMemberFacts[];
  /** Slugs the curriculum has: a pool of a lesson it does not have builds nothing. */
  lessons: ReadonlySet<string>;
  now: Date;
  /**
   * `scheduler.maxLiveLessons` (0 = unlimited), the live lessons holding capacity now (pool members
   * included) and the learners waiting in the admission queue (learners first: while anyone waits, no
   * member is built and idle READY members are retired to make room).
   */
  capacity: { cap: number; used: number; waiting?: number };
}

export interface PoolPlan {
  /** New members to build, per lesson (config order), within the capacity left. */
  create: { lessonSlug: string; count: number }[];
  retire: { id: string; lessonSlug: string; reason: RetireReason }[];
}

/** Why a member should go, or undefined when it may stay (surplus aside). */
function retireReason(member: PoolMemberFacts, target: PoolTarget | undefined, lessons: ReadonlySet<string>, now: Date): RetireReason | undefined {
  if (!target || target.size === 0 || !lessons.has(member.lessonSlug)) return 'unconfigured';
  if (member.error) return 'failed';
  if (member.stale) return 'stale';
  const old = target.maxAge > 0 && now.getTime() - member.createdAt.getTime() >= target.maxAge * 1000;
  if (old && member.status === LiveLessonStatus.READY) return 'max-age';
  return undefined;
}

/** READY members first (they are what a claim takes), then the oldest. */
const keepOrder = (a: PoolMemberFacts, b: PoolMemberFacts): number =>
  Number(b.status === LiveLessonStatus.READY) - Number(a.status === LiveLessonStatus.READY) || a.createdAt.getTime() - b.createdAt.getTime();

/**
 * One pass of pool keeping, as a pure function: which members to retire (failed, from a changed lesson,
 * older than `maxAge`, beyond the size, or of a pool no longer configured) and how many to build so
 * each pool is full again — never past the cluster's capacity (pool members are real pods).
 */
export function planPools(input: PoolPlanInput): PoolPlan {
  const retire: PoolPlan['retire'] = [];
  const healthy = new Map<string, PoolMemberFacts[]>();
  for (const member of input.members) {
    if (member.deleting) continue;
    const reason = retireReason(member, input.pools[member.lessonSlug], input.lessons, input.now);
    if (reason) retire.push({ id: member.id, lessonSlug: member.lessonSlug, reason });
    else healthy.set(member.lessonSlug, [...(healthy.get(member.lessonSlug) ?? []), member]);
  }
  let budget = input.capacity.cap > 0 ? Math.max(0, input.capacity.cap - input.capacity.used) : Number.POSITIVE_INFINITY;
  const waiting = input.capacity.waiting ?? 0;
  if (waiting > 0) {
    retire.push(...makeRoom(healthy, waiting - budget));
    budget = 0;
  }
  const create: PoolPlan['create'] = [];
  for (const [lessonSlug, target] of Object.entries(input.pools)) {
    if (!input.lessons.has(lessonSlug)) continue;
    const kept = [...(healthy.get(lessonSlug) ?? [])].sort(keepOrder);
    for (const member of kept.slice(target.size)) retire.push({ id: member.id, lessonSlug, reason: 'surplus' });
    const count = Math.min(Math.max(0, target.size - kept.length), budget);
    if (count > 0) create.push({ lessonSlug, count });
    budget -= count;
  }
  return { create, retire };
}

/** Retires up to `count` idle READY members, the oldest first, taking them out of `healthy`: learners in line need their capacity. */
function makeRoom(healthy: Map<string, PoolMemberFacts[]>, count: number): PoolPlan['retire'] {
  const idle = [...healthy.values()]
    .flat()
    .filter((member) => member.status === LiveLessonStatus.READY)
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
    .slice(0, Math.max(0, count));
  for (const member of idle)
    healthy.set(
      member.lessonSlug,
      (healthy.get(member.lessonSlug) ?? []).filter((kept) => kept !== member),
    );
  return idle.map((member) => ({ id: member.id, lessonSlug: member.lessonSlug, reason: 'learners-waiting' }));
}
