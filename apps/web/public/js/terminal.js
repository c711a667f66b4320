import { FitAddon } from '../vendor/addon-fit.mjs';
import { Terminal } from '../vendor/xterm.mjs';
import { copyText } from './code-tools.js';
import { h } from './dom.js';

const THEME = { background: '#111417', foreground: '#e8eaed', cursor: '#e8eaed', selectionBackground: '#3d5a80' };
/** What a reload keeps of a terminal (this tab's sessionStorage): its last lines, bounded. */
const KEPT_LINES = 1000;
const KEPT_CHARS = 100_000;
const CHUNK = 8000;

const keptKey = (labId, tabId) => `antidote.scrollback.${labId}.${tabId}`;

/** Why a terminal closed, in words; the codes are the api's (apps/api/src/terminals/terminal.errors.ts). */
const closedBecause = (code, reason) => (code === 1006 ? 'the connection was lost' : reason || `closed (${code})`);

/**
 * One browser terminal: xterm.js over a WebSocket to the api's `/terminals`, which opens the SSH session
 * itself (the browser never sees the device's password). Frames to the api are JSON
 * (`{type:'input',data}` / `{type:'resize',cols,rows}`), sent in order once the socket is open; frames
 * from it are the terminal's output. Ctrl+Shift+C / Ctrl+Shift+V copy and paste (Ctrl+C stays SIGINT);
 * a closed terminal offers "Reconnect"; a reload shows what it held before.
 */
export function openTerminal({ labId, sessionId, tab, container, onClosed }) {
  const term = new Terminal({ cursorBlink: true, fontSize: 14, scrollback: 5000, screenReaderMode: true, theme: THEME });
  const fit = new FitAddon();
  term.loadAddon(fit);
  const status = h('span', { class: 'terminal-status', role: 'status' }, `Connecting to ${tab.label}…`);
  const reconnect = h('button', { type: 'button', class: 'reconnect', hidden: true, onclick: () => connect() }, 'Reconnect');
  container.before(h('div', { class: 'terminal-bar' }, status, reconnect));
  term.open(container);

  const kept = sessionStorage.getItem(keptKey(labId, tab.id));
  if (kept) term.write(`\x1b[2m${kept.replaceAll('\n', '\r\n')}\x1b[0m\r\n\x1b[2m— before the reload —\x1b[0m\r\n`);

  let socket;
  let pending = [];
  let sent;
  const send = (message) => {
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    else if (message.type === 'input' && socket?.readyState === WebSocket.CONNECTING) pending.push(message);
  };
  /** Sized to its box once, and again only when the box really changes (never for a hidden tab). */
  const resize = () => {
    const size = fit.proposeDimensions();
    if (!size || !size.cols || !size.rows || !Number.isFinite(size.cols)) return;
    if (size.cols !== term.cols || size.rows !== term.rows) fit.fit();
    if (socket?.readyState !== WebSocket.OPEN || (sent && sent.cols === term.cols && sent.rows === term.rows)) return;
    sent = { cols: term.cols, rows: term.rows };
    send({ type: 'resize', ...sent });
  };

  function connect() {
    reconnect.hidden = true;
    status.textContent = `Connecting to ${tab.label}…`;
    const url = new URL('/terminals', location.href);
    url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    url.search = new URLSearchParams({ liveLessonId: labId, sessionId, endpoint: tab.endpoint, presentation: tab.presentation }).toString();
    const current = new WebSocket(url);
    socket = current;
    sent = undefined;
    current.binaryType = 'arraybuffer';
    current.addEventListener('open', () => {
      status.textContent = `Connected to ${tab.label}`;
      resize();
      for (const message of pending) current.send(JSON.stringify(message));
      pending = [];
    });
    current.addEventListener('message', (event) => term.write(typeof event.data === 'string' ? event.data : new Uint8Array(event.data)));
    current.addEventListener('close', (event) => {
      if (socket !== current) return;
      status.textContent = `Disconnected from ${tab.label}: ${closedBecause(event.code, event.reason)}`;
      reconnect.hidden = false;
      onClosed?.(event.code);
    });
  }

  term.onData((data) => send({ type: 'input', data }));
  term.attachCustomKeyEventHandler((event) => {
    if (!event.ctrlKey || !event.shiftKey || event.altKey || event.metaKey) return true;
    if (event.code === 'KeyC') {
      if (event.type === 'keydown' && term.hasSelection()) void copyText(term.getSelection());
      event.preventDefault();
      return false;
    }
    // The browser pastes (a paste event on xterm's own text area, which xterm types in).
    return event.code !== 'KeyV';
  });
  let frame;
  const observer = new ResizeObserver(() => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(resize);
  });
  observer.observe(container);

  const keep = () => {
    const buffer = term.buffer.active;
    const lines = [];
    for (let y = Math.max(0, buffer.length - KEPT_LINES); y < buffer.length; y++) lines.push(buffer.getLine(y)?.translateToString(true) ?? '');
    while (lines.length && !lines.at(-1)) lines.pop();
    const text = lines.join('\n').slice(-KEPT_CHARS);
    try {
      if (text) sessionStorage.setItem(keptKey(labId, tab.id), text);
    } catch {
      // storage full: the next reload starts empty
    }
  };
  window.addEventListener('pagehide', keep);
  connect();

  return {
    /** Types `text` as the learner would: each line with Enter. */
    type(text) {
      const data = `${text.split('\n').join('\r')}\r`;
      for (let i = 0; i < data.length; i += CHUNK) send({ type: 'input', data: data.slice(i, i + CHUNK) });
    },
    focus: () => term.focus(),
    fit: resize,
    close() {
      window.removeEventListener('pagehide', keep);
      sessionStorage.removeItem(keptKey(labId, tab.id));
      observer.disconnect();
      const closing = socket;
      socket = undefined;
      closing?.close(1000, 'closed by the page');
      term.dispose();
    },
  };
}
