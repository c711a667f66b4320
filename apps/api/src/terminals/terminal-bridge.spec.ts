import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ShellChannel } from './ssh-shell.js';
import { bridgeTerminal, OUTPUT_HIGH_WATER_BYTES, parseFrame, type TerminalSocket } from './terminal-bridge.js';
import { TerminalCloseCode } from './terminal.errors.js';

function pair(rates = { framesPerSecond: 1000, bytesPerSecond: 100_000 }) {
  const sent: string[] = [];
  const closes: [number, string][] = [];
  const written: string[] = [];
  const sizes: [number, number][] = [];
  const reading = { paused: false, shellTakes: true, shellPaused: false, buffered: 0 };
  const unsent: (() => void)[] = [];
  let onMessage: (data: string) => void = () => undefined;
  let onSocketClose: () => void = () => undefined;
  let onData: (chunk: Buffer) => void = () => undefined;
  let onShellClose: () => void = () => undefined;
  let onDrain: () => void = () => undefined;
  let shellClosed = 0;
  const socket: TerminalSocket = {
    send: (data, done) => {
      sent.push(data);
      reading.buffered += data.length;
      unsent.push(() => {
        reading.buffered -= data.length;
        done();
      });
    },
    bufferedBytes: () => reading.buffered,
    close: (code, reason) => void closes.push([code, reason]),
    onMessage: (l) => (onMessage = l),
    onClose: (l) => (onSocketClose = l),
    pause: () => void (reading.paused = true),
    resume: () => void (reading.paused = false),
  };
  const shell: ShellChannel = {
    write: (data) => written.push(data) > 0 && reading.shellTakes,
    onDrain: (l) => (onDrain = l),
    resize: (cols, rows) => void sizes.push([cols, rows]),
    onData: (l) => (onData = l),
    onClose: (l) => (onShellClose = l),
    close: () => void shellClosed++,
    pause: () => void (reading.shellPaused = true),
    resume: () => void (reading.shellPaused = false),
  };
  const ends = { count: 0 };
  bridgeTerminal(socket, shell, { idleTimeoutMs: 60_000, maxFrameBytes: 100, ...rates }, () => ends.count++);
  return {
    sent,
    closes,
    written,
    sizes,
    ends,
    reading,
    shellClosed: () => shellClosed,
    message: (d: string) => onMessage(d),
    type: (data: string) => onMessage(JSON.stringify({ type: 'input', data })),
    output: (t: string) => onData(Buffer.from(t)),
    drain: () => onDrain(),
    /** The page reads what was sent, oldest first. */
    pageReads: (count: number) => unsent.splice(0, count).forEach((done) => done()),
    shellEnds: () => onShellClose(),
    pageCloses: () => onSocketClose(),
  };
}

describe('bridgeTerminal', () => {
  afterEach(() => void vi.useRealTimers());

  it('types input into the shell, resizes it, and sends its output to the page', () => {
    const t = pair();
    t.message(JSON.stringify({ type: 'input', data: 'ls\r' }));
    t.message(JSON.stringify({ type: 'resize', cols: 120, rows: 40 }));
    t.output('file\r\n$ ');
    expect([t.written, t.sizes, t.sent]).toEqual([['ls\r'], [[120, 40]], ['file\r\n$ ']]);
  });

  it.each([
    ['an unknown frame', '{"type":"exec","data":"x"}', TerminalCloseCode.badRequest],
    ['not JSON', 'ls\r', TerminalCloseCode.badRequest],
    ['an absurd size', '{"type":"resize","cols":100000,"rows":1}', TerminalCloseCode.badRequest],
    ['an oversized frame', JSON.stringify({ type: 'input', data: 'x'.repeat(200) }), TerminalCloseCode.tooBig],
  ])('ends both sides on %s', (_case, frame, code) => {
    const t = pair();
    t.message(frame);
    expect(t.closes[0][0]).toBe(code);
    expect([t.shellClosed(), t.ends.count, t.written.length]).toEqual([1, 1, 0]);
  });

  it('ends once whichever side ends first, however many times ends are reported', () => {
    const t = pair();
    t.shellEnds();
    t.pageCloses();
    t.shellEnds();
    expect(t.closes).toEqual([[TerminalCloseCode.normal, 'the session ended']]);
    expect(t.ends.count).toBe(1);
  });

  it('closes a terminal idle for idleTimeoutMs, and activity either way postpones it', () => {
    vi.useFakeTimers();
    const t = pair();
    vi.advanceTimersByTime(59_000);
    t.output('tick');
    vi.advanceTimersByTime(59_000);
    t.message(JSON.stringify({ type: 'input', data: 'a' }));
    vi.advanceTimersByTime(59_000);
    expect(t.closes).toEqual([]);
    vi.advanceTimersByTime(2000);
    expect(t.closes).toEqual([[TerminalCloseCode.idle, 'closed after 60 s without activity']]);
    expect(t.shellClosed()).toBe(1);
  });

  it('passes input at framesPerSecond: past it the socket is paused and the frames already read wait their turn, in order', () => {
    vi.useFakeTimers();
    const t = pair({ framesPerSecond: 10, bytesPerSecond: 100_000 });
    for (let i = 0; i < 25; i++) t.type(String(i));
    expect([t.written.length, t.reading.paused]).toEqual([10, true]);
    vi.advanceTimersByTime(1000);
    expect([t.written.length, t.reading.paused]).toEqual([20, true]);
    vi.advanceTimersByTime(1000);
    expect(t.written).toEqual(Array.from({ length: 25 }, (_, i) => String(i)));
    expect(t.reading.paused).toBe(false);
  });

  it("passes input at bytesPerSecond, a paste larger than a second's worth at once, and the next frame once it is paid back", () => {
    vi.useFakeTimers();
    // The frame's bytes count: {"type":"input","data":"…"} is 26 + 60 = 86, 36 past the bucket's 50 (0.74 s to pay back).
    const t = pair({ framesPerSecond: 1000, bytesPerSecond: 50 });
    t.type('x'.repeat(60));
    t.type('y');
    expect([t.written.length, t.reading.paused]).toEqual([1, true]);
    vi.advanceTimersByTime(700);
    expect(t.written).toEqual(['x'.repeat(60)]);
    vi.advanceTimersByTime(100);
    expect(t.written).toEqual(['x'.repeat(60), 'y']);
    expect(t.reading.paused).toBe(false);
  });

  it('stops reading while the shell buffers, and goes on when it drains', () => {
    const t = pair();
    t.reading.shellTakes = false;
    t.type('a');
    t.type('b');
    expect([t.written, t.reading.paused]).toEqual([['a'], true]);
    t.reading.shellTakes = true;
    t.drain();
    expect([t.written, t.reading.paused]).toEqual([['a', 'b'], false]);
  });

  it('stops reading the shell while a page does not read its output, and reads on once most of it left', () => {
    const t = pair();
    const chunk = 'y'.repeat(64 * 1024);
    for (let i = 0; i < 4; i++) t.output(chunk);
    expect(t.reading.shellPaused).toBe(false);
    t.output(chunk);
    expect([t.reading.shellPaused, t.reading.buffered]).toEqual([true, OUTPUT_HIGH_WATER_BYTES + chunk.length]);
    t.pageReads(3);
    expect(t.reading.shellPaused).toBe(true);
    t.pageReads(1);
    expect(t.reading.shellPaused).toBe(false);
  });

  it('parses only the two frame kinds', () => {
    expect(parseFrame('{"type":"input","data":"x"}')).toEqual({ type: 'input', data: 'x' });
    expect(parseFrame('{"type":"input","data":"x","extra":1}')).toBeUndefined();
  });
});
