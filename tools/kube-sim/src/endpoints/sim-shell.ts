import { isNetworkImage, runLine, runWords, type ShellIdentity } from './shell-commands.js';

export type { ShellIdentity } from './shell-commands.js';

/** Where a shell session writes, and how it ends. */
export interface ShellIo {
  write(text: string): void;
  exit(code: number): void;
}

const SHELLS = new Set(['sh', 'bash', 'ash', 'zsh', '/bin/sh', '/bin/bash', '/bin/ash', '/usr/bin/bash', 'cli', 'vtysh']);
const MAX_LINE = 4096;

/** Whether a command (kubectl exec's argv) starts an interactive shell rather than running one command. */
export const isShell = (argv: readonly string[]): boolean => argv.length === 0 || (argv.length === 1 && SHELLS.has(argv[0]));

/** The prompt: `user@host> ` on network images, `host# ` for root, `host$ ` otherwise. */
export const promptOf = (identity: ShellIdentity): string =>
  isNetworkImage(identity) ? `${identity.user}@${identity.hostname}> ` : `${identity.hostname}${identity.user === 'root' ? '#' : '$'} `;

/**
 * A small simulated shell, the same behind an endpoint's SSH listener and `kubectl exec`: with a terminal
 * it prompts, echoes what is typed (backspace, Ctrl-C, Ctrl-D) and answers with CRLF line ends; without
 * one it runs each line it reads, silently, like `sh` reading a pipe. `exit` (or the end of input) ends it.
 */
export class SimShell {
  private line = '';
  private status = 0;
  private escape = false;
  private done = false;

  constructor(
    private readonly identity: ShellIdentity,
    private readonly io: ShellIo,
    private readonly tty: boolean,
  ) {}

  /** Prints the first prompt (terminal sessions). */
  start(): void {
    if (this.tty) this.io.write(promptOf(this.identity));
  }

  /** Bytes from the user (typed keys, or a piped script). */
  input(data: Buffer | string): void {
    for (const char of data.toString('utf8')) {
      if (this.done) return;
      this.key(char);
    }
  }

  /** The input ended (stdin closed): run what is left and exit with the last status. */
  end(): void {
    if (this.done) return;
    if (this.line.trim()) this.run();
    this.finish(this.status);
  }

  private key(char: string): void {
    if (this.escape) {
      // Skip terminal escape sequences (arrow keys): ESC [ … final byte.
      if (/[A-Za-z~]/.test(char)) this.escape = false;
      return;
    }
    if (char === '\x1b') this.escape = true;
    else if (char === '\r' || char === '\n') {
      if (this.tty) this.io.write('\r\n');
      this.run();
      if (!this.done && this.tty) this.io.write(promptOf(this.identity));
    } else if (char === '\x7f' || char === '\b') {
      if (this.line.length > 0 && this.tty) this.io.write('\b \b');
      this.line = this.line.slice(0, -1);
    } else if (char === '\x03') {
      this.line = '';
      if (this.tty) this.io.write(`^C\r\n${promptOf(this.identity)}`);
    } else if (char === '\x04') {
      if (this.line !== '') return;
      if (this.tty) this.io.write(isNetworkImage(this.identity) ? '\r\n' : 'exit\r\n');
      this.finish(this.status);
    } else if (char >= ' ' && this.line.length < MAX_LINE) {
      this.line += char;
      if (this.tty) this.io.write(char);
    }
  }

  private run(): void {
    const line = this.line;
    this.line = '';
    if (!line.trim()) return;
    const result = runLine(line, this.identity, this.status);
    this.status = result.code;
    if (result.output) this.io.write(this.tty ? result.output.replaceAll('\n', '\r\n') : result.output);
    if (result.exit) this.finish(result.code);
  }

  private finish(code: number): void {
    if (this.done) return;
    this.done = true;
    this.io.exit(code);
  }
}

/** Runs one command (an SSH `exec` request's line, or kubectl exec's argv) and reports its output and status. */
export function runCommand(command: string | readonly string[], identity: ShellIdentity): { output: string; code: number } {
  const result = typeof command === 'string' ? runLine(command, identity) : runWords([...command], identity);
  return { output: result.output, code: result.code };
}
