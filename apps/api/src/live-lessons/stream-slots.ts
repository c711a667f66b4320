/** Open event streams per client address, capped at `max` each (0 = unlimited). */
export class StreamSlots {
  private readonly open = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Takes a slot for `client`; false when it already holds `max`. */
  take(client: string): boolean {
    const held = this.open.get(client) ?? 0;
    if (this.max > 0 && held >= this.max) return false;
    this.open.set(client, held + 1);
    return true;
  }

  release(client: string): void {
    const held = (this.open.get(client) ?? 0) - 1;
    if (held > 0) this.open.set(client, held);
    else this.open.delete(client);
  }

  heldBy(client: string): number {
    return this.open.get(client) ?? 0;
  }
}
