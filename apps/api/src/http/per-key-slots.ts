/**
 * Open things per key (terminals per learner session, event streams per client address), at most `max`
 * for each key at once. `max` 0 means none at all; pass `Infinity` for no cap.
 */
export class PerKeySlots {
  private readonly open = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Takes a slot for `key`; false when it already holds `max`. */
  take(key: string): boolean {
    const held = this.open.get(key) ?? 0;
    if (held >= this.max) return false;
    this.open.set(key, held + 1);
    return true;
  }

  release(key: string): void {
    const held = (this.open.get(key) ?? 0) - 1;
    if (held > 0) this.open.set(key, held);
    else this.open.delete(key);
  }

  heldBy(key: string): number {
    return this.open.get(key) ?? 0;
  }
}
