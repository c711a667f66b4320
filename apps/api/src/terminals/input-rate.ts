export interface InputRates {
  framesPerSecond: number;
  bytesPerSecond: number;
}

/**
 * Two token buckets of a terminal's input, refilled continuously, a second's worth at most: frames and
 * bytes. A frame passes while both are positive and then takes its whole size, so a paste larger than a
 * second's worth passes at once and the next frame waits until the bytes are paid back.
 */
export class InputRate {
  private frames: number;
  private bytes: number;
  private at: number;

  constructor(
    private readonly rates: InputRates,
    private readonly now: () => number = Date.now,
  ) {
    this.frames = rates.framesPerSecond;
    this.bytes = rates.bytesPerSecond;
    this.at = now();
  }

  /** Milliseconds until the next frame may pass (0: now). */
  waitMs(): number {
    const now = this.now();
    const seconds = (now - this.at) / 1000;
    this.at = now;
    this.frames = Math.min(this.rates.framesPerSecond, this.frames + seconds * this.rates.framesPerSecond);
    this.bytes = Math.min(this.rates.bytesPerSecond, this.bytes + seconds * this.rates.bytesPerSecond);
    const frameWait = this.frames >= 1 ? 0 : (1 - this.frames) / this.rates.framesPerSecond;
    const byteWait = this.bytes > 0 ? 0 : (1 - this.bytes) / this.rates.bytesPerSecond;
    return Math.ceil(Math.max(frameWait, byteWait) * 1000);
  }

  take(bytes: number): void {
    this.frames -= 1;
    this.bytes -= bytes;
  }
}
