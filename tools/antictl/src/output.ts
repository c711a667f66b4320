import { CliErrorCodes } from '@antidote/contracts/error-codes';
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
    if (!this.json) this.write(`${text}\n`);
  }

  data(value: unknown, lines: () => string[]): void {
    if (this.json) this.write(`${JSON.stringify(value, null, 2)}\n`);
    else for (const line of lines()) this.write(`${line}\n`);
  }

  /** Rewrites the current line on a TTY; prints a line per change otherwise. */
  progress(text: string): void {
    if (this.json) return;
    if (this.interactive) this.write(`\r\x1b[2K${text}`);
    else this.write(`${text}\n`);
  }

  endProgress(): void {
    if (this.interactive) this.write('\n');
  }

  /** A closed pipe (the reader went away) must not kill the command halfway through its work. */
  private write(text: string): void {
    if (!this.stream.writable) return;
    this.stream.write(text);
  }
}

/**
 * A failure the user caused or can fix: printed as one line without a stack (a JSON object under
 * `--json`), exit code 1 (2 for usage). `code` is stable for scripts; `details` are extra lines/fields.
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
    readonly code: string = exitCode === 2 ? CliErrorCodes.usage : CliErrorCodes.failed,
    readonly details: readonly string[] = [],
  ) {
    super(message);
  }
}

/** `ConfigError` of `@antidote/config`, recognised without loading that library (and zod) on every command. */
const isConfigError = (error: unknown): error is Error & { code: string; source?: string; problems: readonly string[] } =>
  error instanceof Error && error.name === 'ConfigError' && Array.isArray((error as { problems?: unknown }).problems);

/** What main prints for a failure: the one-line message (then any details), or a JSON object with a code. */
export function describeFailure(error: unknown, json: boolean): string {
  const failure =
    error instanceof CliError
      ? { code: error.code, message: error.message, details: error.details }
      : isConfigError(error)
        ? { code: error.code, message: `invalid configuration${error.source ? ` in ${error.source}` : ''}`, details: error.problems }
        : { code: CliErrorCodes.internal, message: error instanceof Error ? error.message : String(error), details: [] as readonly string[] };
  if (json) return `${JSON.stringify({ error: failure })}\n`;
  return [`antictl: ${failure.message}`, ...failure.details.map((line) => `  ${line}`)].join('\n') + '\n';
}
