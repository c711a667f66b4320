import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ShellChannel } from './ssh-shell.js';
import { bridgeTerminal, parseFrame, type TerminalSocket } from './terminal-bridge.js';
import { TerminalCloseCode } from './terminal.errors.js';

function pair() {
  const sent: string[] = [];
  const closes: [number, string][] = [];
  const written: string[] = [];
  const sizes: [number, number][] = [];
  let onMessage: (data: string) => void = () => undefined;
  let onSocketClose: () => void = () => undefined;
  let onData: (chunk: Buffer) => void = () => undefined;
  let onShellClose: () => void = () => undefined;
  let shellClosed = 0;
  const socket: TerminalSocket = { send: (data) => void sent.push(data), close: (code, reason) => void closes.push([code, reason]), onMessage: (l) => (onMessage = l), onClose: (l) => (onSocketClose = l) };
  const shell: ShellChannel = { write: (data) => void written.push(data), resize: (cols, rows) => void sizes.push([cols, rows]), onData: (l) => (onData = l), onClose: (l) => (onShellClose = l), close: () => void shellClosed++ };
  const ends = { count: 0 };
  bridgeTerminal(socket, shell, { idleTimeoutMs: 60_000, maxFrameBytes: 100 }, () => ends.count++);
  return { sent, closes, written, sizes, ends, shellClosed: () => shellClosed, message: (d: string) => onMessage(d), output: (t: string) => onData(Buffer.from(t)), shellEnds: () => onShellClose(), pageCloses: () => onSocketClose() };
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

  it('parses only the two frame kinds', () => {
    expect(parseFrame('{"type":"input","data":"x"}')).toEqual({ type: 'input', data: 'x' });
    expect(parseFrame('{"type":"input","data":"x","extra":1}')).toBeUndefined();
  });
});
