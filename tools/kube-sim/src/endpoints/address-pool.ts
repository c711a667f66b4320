/** Hands out distinct loopback addresses from a /16 (Linux routes all of 127.0.0.0/8 to lo). */
export class AddressPool {
  private next = 0;
  private readonly free: string[] = [];

  constructor(private readonly prefix: string) {}

  allocate(): string {
    const reused = this.free.shift();
    if (reused) return reused;
    const n = this.next++;
    if (n >= 250 * 250) throw new Error(`address pool ${this.prefix}.0.0/16 exhausted`);
    return `${this.prefix}.${Math.floor(n / 250)}.${(n % 250) + 1}`;
  }

  release(address: string): void {
    this.free.push(address);
  }
}
