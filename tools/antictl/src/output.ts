/** Where a command writes: JSON for scripts (`--json`), plain lines otherwise; progress only on a TTY. */
export class Output {
  constructor(
    readonly json: boolean,
    private readonly stream: NodeJS.WriteStream = process.stdout,
  ) {}

  get interactive(): boolean {
    return !this.json && Boolean(this.stream.isTTY);
  }

  line(text = ''): void {
    if (!this.json) this.stream.write(`${text}\n`);
  }

  data(value: unknown, lines: () => string[]): void {
    if (this.json) this.stream.write(`${JSON.stringify(value, null, 2)}\n`);
    else for (const line of lines()) this.stream.write(`${line}\n`);
  }

  /** Rewrites the current line on a TTY; prints a line per change otherwise. */
  progress(text: string): void {
    if (this.json) return;
    if (this.interactive) this.stream.write(`\r\x1b[2K${text}`);
    else this.stream.write(`${text}\n`);
  }

  endProgress(): void {
    if (this.interactive) this.stream.write('\n');
  }
}

/** A failure the user caused or can fix: printed without a stack, exit code 1 (2 for usage). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
