import { matchesPattern, type Faults } from '../faults.js';

/** How long pulling `image` takes: the first `imagePullDelays` pattern that matches, else `imagePullDelayMs`. */
export function pullDelayOf(faults: Faults, image: string): number {
  const rule = Object.entries(faults.imagePullDelays).find(([pattern]) => matchesPattern(pattern, image));
  return rule ? rule[1] : faults.imagePullDelayMs;
}

/** A pull of one image on one node: done once `pulled` is set; pods arriving meanwhile wait for the same pull. */
interface Pull {
  pulled: boolean;
  waiters: (() => void)[];
}

/**
 * The images each node holds, as a kubelet's image store: the first pod of an image on a node pulls it
 * (its pull delay); later pods on that node find it present. Pods asking while a pull runs wait for that
 * same pull (a kubelet pulls an image once). Lost with the simulator, like its nodes.
 */
export class ImageCache {
  private readonly nodes = new Map<string, Map<string, Pull>>();

  has(node: string, image: string): boolean {
    return this.nodes.get(node)?.get(image)?.pulled ?? false;
  }

  /** The images a node holds (pulled, not being pulled). */
  imagesOn(node: string): string[] {
    return [...(this.nodes.get(node) ?? new Map<string, Pull>()).entries()].filter(([, pull]) => pull.pulled).map(([image]) => image);
  }

  /**
   * Calls `done` once `image` is on `node`: now when present, after the running pull when one runs, else
   * after a pull of `delayMs` started by `schedule` (the caller's timer, cleared when the simulator stops).
   */
  ensure(node: string, image: string, delayMs: number, schedule: (ms: number, step: () => void) => void, done: () => void): void {
    const images = this.nodes.get(node) ?? new Map<string, Pull>();
    this.nodes.set(node, images);
    const current = images.get(image);
    if (current?.pulled) return done();
    if (current) {
      current.waiters.push(done);
      return;
    }
    const pull: Pull = { pulled: false, waiters: [done] };
    images.set(image, pull);
    schedule(delayMs, () => {
      pull.pulled = true;
      for (const waiter of pull.waiters.splice(0)) waiter();
    });
  }

  /** Forgets a node's images (`undefined`: every node's). */
  clear(node?: string): void {
    if (node === undefined) this.nodes.clear();
    else this.nodes.delete(node);
  }
}
