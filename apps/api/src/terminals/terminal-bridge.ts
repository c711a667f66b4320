import { z } from 'zod';
import type { ShellChannel } from './ssh-shell.js';
import { TerminalCloseCode } from './terminal.errors.js';

/** Port: the browser's side (a WebSocket). */
export interface TerminalSocket {
  send(data: string): void;
  close(code: number, reason: string): void;
  onMessage(listener: (data: string) => void): void;
  onClose(listener: () => void): void;
}

export interface BridgeLimits {
  idleTimeoutMs: number;
  maxFrameBytes: number;
}

const frameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('input'), data: z.string() }).strict(),
  z.object({ type: z.literal('resize'), cols: z.number().int().min(1).max(1000), rows: z.number().int().min(1).max(1000) }).strict(),
]);

/** Parses a frame from the page; undefined for anything that is not a known frame. */
export function parseFrame(text: string): z.infer<typeof frameSchema> | undefined {
  try {
    const parsed = frameSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Joins the page's socket to the device's shell: keys and resizes in, output out. Ends both when either
 * ends, on a bad or oversized frame, or after `idleTimeoutMs` without a byte either way. `onEnd` runs once.
 */
export function bridgeTerminal(socket: TerminalSocket, shell: ShellChannel, limits: BridgeLimits, onEnd: () => void): void {
  let ended = false;
  let idle: NodeJS.Timeout | undefined;
  const end = (code: number, reason: string): void => {
    if (ended) return;
    ended = true;
    clearTimeout(idle);
    shell.close();
    socket.close(code, reason);
    onEnd();
  };
  const active = (): void => {
    clearTimeout(idle);
    idle = setTimeout(() => end(TerminalCloseCode.idle, `closed after ${Math.round(limits.idleTimeoutMs / 1000)} s without activity`), limits.idleTimeoutMs);
  };
  shell.onData((chunk) => {
    if (ended) return;
    active();
    socket.send(chunk.toString('utf8'));
  });
  shell.onClose(() => end(TerminalCloseCode.normal, 'the session ended'));
  socket.onClose(() => end(TerminalCloseCode.normal, 'closed by the page'));
  socket.onMessage((text) => {
    if (ended) return;
    if (Buffer.byteLength(text) > limits.maxFrameBytes) return end(TerminalCloseCode.tooBig, `a frame is at most ${limits.maxFrameBytes} bytes`);
    const frame = parseFrame(text);
    if (!frame) return end(TerminalCloseCode.badRequest, 'not a terminal frame');
    active();
    if (frame.type === 'input') shell.write(frame.data);
    else shell.resize(frame.cols, frame.rows);
  });
  active();
}
