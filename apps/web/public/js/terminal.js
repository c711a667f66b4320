import { Terminal } from '/vendor/xterm.mjs';
import { FitAddon } from '/vendor/addon-fit.mjs';
import { h } from './dom.js';

/**
 * One browser terminal: xterm.js over a WebSocket to the api's `/terminals`, which opens the SSH session
 * itself (the browser never sees the device's password). Frames to the api are JSON
 * (`{type:'input',data}` / `{type:'resize',cols,rows}`); frames from it are the terminal's output.
 */
export function openTerminal({ liveLessonId, sessionId, endpoint, container }) {
  const term = new Terminal({ cursorBlink: true, fontSize: 14, convertEol: false, screenReaderMode: true, theme: { background: '#111417', foreground: '#e8eaed' } });
  const fit = new FitAddon();
  term.loadAddon(fit);
  term.open(container);
  const status = h('p', { class: 'terminal-status', role: 'status' }, `Connecting to ${endpoint}…`);
  container.before(status);
  const url = new URL('/terminals', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  url.search = new URLSearchParams({ liveLessonId, sessionId, endpoint }).toString();
  const socket = new WebSocket(url);
  const send = (message) => socket.readyState === WebSocket.OPEN && socket.send(JSON.stringify(message));
  const resize = () => {
    try {
      fit.fit();
    } catch {
      return; // not laid out (hidden tab): fitted when shown
    }
    send({ type: 'resize', cols: term.cols, rows: term.rows });
  };
  socket.addEventListener('open', () => {
    status.textContent = `Connected to ${endpoint}`;
    resize();
  });
  socket.addEventListener('message', (event) => term.write(typeof event.data === 'string' ? event.data : new Uint8Array(event.data)));
  socket.addEventListener('close', (event) => {
    status.textContent = `Disconnected from ${endpoint}${event.reason ? `: ${event.reason}` : ''}`;
  });
  socket.binaryType = 'arraybuffer';
  term.onData((data) => send({ type: 'input', data }));
  const observer = new ResizeObserver(() => resize());
  observer.observe(container);
  return {
    type: (text) => send({ type: 'input', data: text }),
    focus: () => term.focus(),
    fit: resize,
    close: () => {
      observer.disconnect();
      socket.close(1000, 'closed by the page');
      term.dispose();
    },
  };
}

/** One tab per SSH endpoint; `run(endpoint?, text)` types a snippet into that endpoint's (or the active) terminal. */
export function terminalsView(liveLesson, sessionId) {
  const endpoints = Object.values(liveLesson.LiveEndpoints ?? {}).filter((endpoint) => (endpoint.LivePresentations ?? []).some((p) => p.Type === 'ssh'));
  const tabs = h('div', { role: 'tablist', 'aria-label': 'Terminals' });
  const panels = h('div', { class: 'terminal-panels' });
  const open = new Map();
  let active;
  const select = (name) => {
    active = name;
    for (const tab of tabs.children) tab.setAttribute('aria-selected', String(tab.dataset.endpoint === name));
    for (const tab of tabs.children) tab.tabIndex = tab.dataset.endpoint === name ? 0 : -1;
    for (const panel of panels.children) panel.hidden = panel.dataset.endpoint !== name;
    if (!open.has(name)) {
      const container = h('div', { class: 'terminal' });
      panels.querySelector(`[data-endpoint="${CSS.escape(name)}"]`).append(container);
      open.set(name, openTerminal({ liveLessonId: liveLesson.ID, sessionId, endpoint: name, container }));
    }
    open.get(name).fit();
  };
  endpoints.forEach((endpoint, index) => {
    const id = `tab-${endpoint.Name}`;
    tabs.append(
      h('button', {
        type: 'button', role: 'tab', id, class: 'tab', 'data-endpoint': endpoint.Name, 'aria-controls': `panel-${endpoint.Name}`,
        onclick: () => select(endpoint.Name),
        onkeydown: (event) => {
          const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
          if (!step) return;
          const next = endpoints[(index + step + endpoints.length) % endpoints.length].Name;
          select(next);
          tabs.querySelector(`[data-endpoint="${CSS.escape(next)}"]`).focus();
        },
      }, endpoint.Name),
    );
    panels.append(h('div', { role: 'tabpanel', id: `panel-${endpoint.Name}`, 'aria-labelledby': id, 'data-endpoint': endpoint.Name, hidden: true }));
  });
  const element = h('section', { class: 'terminals', 'aria-labelledby': 'terminals-heading' }, h('h2', { id: 'terminals-heading' }, 'Terminals'), endpoints.length ? [tabs, panels] : h('p', {}, 'This lesson has no terminals.'));
  return {
    element,
    start: () => endpoints[0] && select(endpoints[0].Name),
    run(endpoint, text) {
      const name = endpoint && endpoints.some((e) => e.Name === endpoint) ? endpoint : active;
      if (!name) return;
      select(name);
      const lines = text.replace(/\n+$/, '').split('\n');
      for (const line of lines) open.get(name).type(`${line}\r`);
      open.get(name).focus();
    },
    close: () => open.forEach((terminal) => terminal.close()),
  };
}
