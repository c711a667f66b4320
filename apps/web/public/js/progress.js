import { h } from './dom.js';

export const PHASES = [
  ['INITIALIZED', 'initializedAt', 'Requested'],
  ['BOOTING', 'bootingAt', 'Starting endpoints'],
  ['CONFIGURATION', 'configurationAt', 'Configuring'],
  ['READY', 'readyAt', 'Ready'],
];

const isFinal = (status) => status.error || status.deleted || status.status === 'READY';

/**
 * Follows `/exp/livelesson/{id}/events` (server-sent events) until READY, a failure or the deletion;
 * resolves with that last status. The browser reconnects a dropped stream by itself, and the server
 * starts each stream with the current state, so nothing is missed.
 */
export function watchProgress(id, { onStatus, onProgress }) {
  const source = new EventSource(`/exp/livelesson/${encodeURIComponent(id)}/events`);
  const done = new Promise((resolve) => {
    source.addEventListener('status', (event) => {
      const status = JSON.parse(event.data);
      onStatus(status);
      if (isFinal(status)) {
        source.close();
        resolve(status);
      }
    });
    source.addEventListener('progress', (event) => onProgress(JSON.parse(event.data)));
  });
  return { done, close: () => source.close() };
}

/** The phases as an ordered list: done ones with the time they were reached, the current one marked. */
export function progressView() {
  const list = h('ol', { class: 'phases', 'aria-label': 'Lab progress' });
  const detail = h('p', { class: 'progress-detail', role: 'status', 'aria-live': 'polite' });
  const failure = h('div', { class: 'failure', role: 'alert', hidden: true });
  const element = h('section', { class: 'progress', 'aria-labelledby': 'progress-title' }, h('h2', { id: 'progress-title' }, 'Progress'), list, detail, failure);
  const started = Date.now();

  const update = (status) => {
    const times = status.phaseTimes ?? {};
    const first = times.initializedAt ? Date.parse(times.initializedAt) : started;
    const current = PHASES.findIndex(([name]) => name === status.status);
    list.replaceChildren(
      ...PHASES.map(([name, key, label], index) => {
        const at = times[key];
        const state = status.error && index === current ? 'failed' : index < current || (index === current && name === 'READY') ? 'done' : index === current ? 'current' : 'pending';
        return h(
          'li',
          { class: `phase ${state}`, 'data-phase': name, 'aria-current': state === 'current' ? 'step' : undefined },
          h('span', { class: 'phase-name' }, label),
          h('span', { class: 'phase-state' }, state === 'done' ? ' ✓' : state === 'failed' ? ' ✗' : state === 'current' ? ' …' : ''),
          at ? h('span', { class: 'phase-time' }, ` ${new Date(at).toLocaleTimeString()} (+${((Date.parse(at) - first) / 1000).toFixed(1)} s)`) : null,
        );
      }),
    );
    detail.textContent = status.deleted ? 'The lab was ended.' : `${status.status}${status.totalTests ? ` — ${status.healthyTests} of ${status.totalTests} endpoints reachable` : ''}`;
    if (status.error) {
      failure.hidden = false;
      failure.textContent = `The lab could not be started: ${status.failureReason || 'no reason was recorded'}${times.failedAt ? ` (at ${new Date(times.failedAt).toLocaleTimeString()})` : ''}.`;
    } else failure.hidden = true;
  };
  const progress = (event) => {
    detail.textContent = `${event.endpoint} is reachable — ${event.healthy} of ${event.total} endpoints`;
  };
  return { element, update, progress };
}
