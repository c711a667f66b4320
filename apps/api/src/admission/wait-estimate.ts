/** A lab holding capacity: since when, and the latest it can end (Infinity: it never expires). */
export interface HolderTimes {
  since: number;
  expiresAt: number;
}

export interface WaitEstimateInput {
  now: number;
  /** `scheduler.maxLiveLessons` (0 = unlimited: nobody waits). */
  cap: number;
  holders: readonly HolderTimes[];
  /** Recent lifetimes of labs (admission to their end), in milliseconds. */
  lifetimes: readonly number[];
  /** Waiting positions to estimate (1 = next). */
  positions: number;
}

const median = (sorted: readonly number[]): number => sorted[Math.floor((sorted.length - 1) / 2)];

/** A binary min-heap of times. */
class TimeHeap {
  private readonly items: number[] = [];
  push(value: number): void {
    const items = this.items;
    items.push(value);
    for (let i = items.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (items[parent] <= items[i]) break;
      [items[parent], items[i]] = [items[i], items[parent]];
      i = parent;
    }
  }
  pop(): number | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      for (let i = 0; ;) {
        const [left, right] = [2 * i + 1, 2 * i + 2];
        let least = i;
        if (left < items.length && items[left] < items[least]) least = left;
        if (right < items.length && items[right] < items[least]) least = right;
        if (least === i) break;
        [items[least], items[i]] = [items[i], items[least]];
        i = least;
      }
    }
    return top;
  }
}

/**
 * When a running lab will end: its median remaining life among recent labs that lived at least as long
 * as it has (the lifetimes' conditional median), never after it expires; with no such history, when it
 * expires (an upper bound).
 */
export function predictedEnd(holder: HolderTimes, now: number, sortedLifetimes: readonly number[]): number {
  const age = now - holder.since;
  const longer = sortedLifetimes.filter((lifetime) => lifetime > age);
  const end = longer.length > 0 ? holder.since + median(longer) : holder.expiresAt;
  return Math.max(now, Math.min(end, holder.expiresAt));
}

/**
 * Seconds until each waiting position is admitted: the running labs' predicted ends in order, each freed
 * slot taken by the next in line, whose lab then lives the recent median lifetime and frees its slot in
 * turn. Free capacity now is 0 s (the next admission pass). Without any history (no lab has ended lately)
 * nothing is estimated beyond free capacity — expiry alone would say "half an hour" for a line that moves
 * in a minute — and positions that no predicted end reaches (every lab in a persistent session) are
 * undefined too.
 */
export function estimateWaits(input: WaitEstimateInput): (number | undefined)[] {
  const { now, cap, positions } = input;
  if (cap <= 0) return Array<number>(positions).fill(0);
  const sorted = [...input.lifetimes].sort((a, b) => a - b);
  const lifetime = sorted.length > 0 ? median(sorted) : Number.POSITIVE_INFINITY;
  const heap = new TimeHeap();
  for (const holder of input.holders) {
    const end = predictedEnd(holder, now, sorted);
    if (Number.isFinite(end)) heap.push(end);
  }
  const free = Math.max(0, cap - input.holders.length);
  const waits: (number | undefined)[] = [];
  for (let position = 1; position <= positions; position++) {
    if (position <= free) {
      waits.push(0);
      heap.push(now + lifetime);
      continue;
    }
    const at = heap.pop();
    if (at === undefined || sorted.length === 0) {
      waits.push(undefined);
      continue;
    }
    waits.push(Math.max(0, Math.ceil((at - now) / 1000)));
    heap.push(at + lifetime);
  }
  return waits;
}
