/** Addresses in a /16: 250 × 250 (x.y.0.1 … x.y.249.250). */
const SIZE = 250 * 250;

/**
 * Hands out distinct loopback addresses from a /16 (Linux routes all of 127.0.0.0/8 to lo), in turn:
 * a released address is given again only after every other one was, so a listener of a deleted pod that
 * is still closing (or a start that lost a race with its deletion) never holds the port of a new pod.
 */
export class AddressPool {
  private cursor = 0;
  private readonly inUse = new Set<number>();

  constructor(private readonly prefix: string) {}

  allocate(): string {
    for (let tried = 0; tried < SIZE; tried++) {
      const n = this.cursor;
      this.cursor = (this.cursor + 1) % SIZE;
      if (this.inUse.has(n)) continue;
      this.inUse.add(n);
      return `${this.prefix}.${Math.floor(n / 250)}.${(n % 250) + 1}`;
    }
    throw new Error(`address pool ${this.prefix}.0.0/16 exhausted`);
  }

  release(address: string): void {
    const [third, fourth] = address
      .slice(this.prefix.length + 1)
      .split('.')
      .map(Number);
    this.inUse.delete(third * 250 + fourth - 1);
  }

  /** Addresses handed out and not released. */
  get used(): number {
    return this.inUse.size;
  }
}
