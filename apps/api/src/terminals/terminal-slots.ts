/** Open terminals per learner session, at most `max` each (0: none at all). */
export class TerminalSlots {
  private readonly open = new Map<string, number>();

  constructor(private readonly max: number) {}

  take(sessionId: string): boolean {
    const count = this.open.get(sessionId) ?? 0;
    if (count >= this.max) return false;
    this.open.set(sessionId, count + 1);
    return true;
  }

  release(sessionId: string): void {
    const count = (this.open.get(sessionId) ?? 0) - 1;
    if (count > 0) this.open.set(sessionId, count);
    else this.open.delete(sessionId);
  }

  countFor(sessionId: string): number {
    return this.open.get(sessionId) ?? 0;
  }
}
