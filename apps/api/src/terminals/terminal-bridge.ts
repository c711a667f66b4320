import { z } from 'zod';
import { InputRate, type InputRates } from './input-rate.js';
import type { ShellChannel } from './ssh-shell.js';
import { TerminalCloseCode } from './terminal.errors.js';

/** Port: the browser's side (a WebSocket). */
export interface TerminalSocket {
  /** `sent` runs once the data has left for the page. */
  send(data: string, sent: () => void): void;
  /** Bytes given to `send` that have not left yet (a page that does not read holds them here). */
  bufferedBytes(): number;
  close(code: number, reason: string): void;
  onMessage(listener: (data: string) => void): void;
  onClose(listener: () => void): void;
  /** Stop reading the page's frames (TCP then holds the rest back) until `resume`. */
  pause(): void;
  resume(): void;
}

export interface BridgeLimits extends InputRates {
  idleTimeoutMs: number;
  maxFrameBytes: number;
}

const frameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('input'), data: z.string() }).strict(),
  z.object({ type: z.literal('resize'), cols: z.number().int().min(1).max(1000), rows: z.number().int().min(1).max(1000) }).strict(),
]);
type Frame = z.infer<typeof frameSchema>;

/** Parses a frame from the page; undefined for anything that is not a known frame. */
export function parseFrame(text: string): Frame | undefined {
  try {
    const parsed = frameSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Output waiting for a page past this stops reading the shell (SSH flow control then holds the device) until a quarter of it left. */
export const OUTPUT_HIGH_WATER_BYTES = 256 * 1024;

/**
 * Joins the page's socket to the device's shell: keys and resizes in, output out. Input passes at
 * `framesPerSecond` and `bytesPerSecond` and only while the shell takes it: past either, the socket is
 * paused (back-pressure to the page) and the frames already read wait their turn. Output waits for a
 * page that does not read it in bounded memory (OUTPUT_HIGH_WATER_BYTES). Ends both when either ends, on
 * a bad or oversized frame, or after `idleTimeoutMs` without a byte either way. `onEnd` runs once.
 */
export function bridgeTerminal(socket: TerminalSocket, shell: ShellChannel, limits: BridgeLimits, onEnd: () => void): void {
  let ended = false;
  let idle: NodeJS.Timeout | undefined;
  let later: NodeJS.Timeout | undefined;
  let shellFull = false;
  const waiting: { frame: Frame; bytes: number }[] = [];
  const rate = new InputRate(limits);
  const end = (code: number, reason: string): void => {
    if (ended) return;
    ended = true;
    clearTimeout(idle);
    clearTimeout(later);
    shell.close();
    socket.close(code, reason);
    onEnd();
  };
  const active = (): void => {
    clearTimeout(idle);
    idle = setTimeout(() => end(TerminalCloseCode.idle, `closed after ${Math.round(limits.idleTimeoutMs / 1000)} s without activity`), limits.idleTimeoutMs);
  };
  const pump = (): void => {
    later = undefined;
    while (!ended && !shellFull && waiting.length > 0) {
      const wait = rate.waitMs();
      if (wait > 0) {
        socket.pause();
        later = setTimeout(pump, wait);
        return;
      }
      const { frame, bytes } = waiting.shift()!;
      rate.take(bytes);
      if (frame.type === 'resize') shell.resize(frame.cols, frame.rows);
      else shellFull = !shell.write(frame.data);
    }
    if (shellFull) socket.pause();
    else if (!ended) socket.resume();
  };
  shell.onDrain(() => {
    shellFull = false;
    if (!later) pump();
  });
  let outputHeld = false;
  const outputSent = (): void => {
    if (!outputHeld || ended || socket.bufferedBytes() > OUTPUT_HIGH_WATER_BYTES / 4) return;
    outputHeld = false;
    shell.resume();
  };
  shell.onData((chunk) => {
    if (ended) return;
    active();
    socket.send(chunk.toString('utf8'), outputSent);
    if (outputHeld || socket.bufferedBytes() <= OUTPUT_HIGH_WATER_BYTES) return;
    outputHeld = true;
    shell.pause();
  });
  shell.onClose(() => end(TerminalCloseCode.normal, 'the session ended'));
  socket.onClose(() => end(TerminalCloseCode.normal, 'closed by the page'));
  socket.onMessage((text) => {
    if (ended) return;
    const bytes = Buffer.byteLength(text);
    if (bytes > limits.maxFrameBytes) return end(TerminalCloseCode.tooBig, `a frame is at most ${limits.maxFrameBytes} bytes`);
    const frame = parseFrame(text);
    if (!frame) return end(TerminalCloseCode.badRequest, 'not a terminal frame');
    active();
    waiting.push({ frame, bytes });
    if (!later && !shellFull) pump();
  });
  active();
}
