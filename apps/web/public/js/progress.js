import { h } from './dom.js';

export const PHASES = [
  ['INITIALIZED', 'initializedAt', 'Requested'],
  ['BOOTING', 'bootingAt', 'Starting devices'],
  ['CONFIGURATION', 'configurationAt', 'Configuring'],
  ['READY', 'readyAt', 'Ready'],
];

const tests = (status) => (status.totalTests ? ` · ${status.healthyTests} of ${status.totalTests} reachable` : '');

/** The lab's state in a few words and its tone (`ready`, `busy`), for the header strip. */
export function stateOf(status) {
  if (status.status === 'READY') return [`Ready${status.healthyTests < status.totalTests ? tests(status) : ''}`, 'ready'];
  if (status.status === 'CONFIGURATION' && status.phaseTimes?.readyAt) return [`Changing stage…`, 'busy'];
  const label = PHASES.find(([name]) => name === status.status)?.[2] ?? status.status;
  return [`${label}…${tests(status)}`, 'busy'];
}

/** The phases as an ordered list: done ones with the time they were reached, the current one marked. */
export function progressView() {
  const list = h('ol', { class: 'phases', 'aria-label': 'Lab progress' });
  const detail = h('p', { class: 'progress-detail', role: 'status', 'aria-live': 'polite' });
  const element = h('section', { class: 'progress', 'aria-labelledby': 'progress-title' }, h('h2', { id: 'progress-title' }, 'Progress'), list, detail);
  const started = Date.now();

  const update = (status) => {
    const times = status.phaseTimes ?? {};
    const first = times.initializedAt ? Date.parse(times.initializedAt) : started;
    const current = PHASES.findIndex(([name]) => name === status.status);
    list.replaceChildren(
      ...PHASES.map(([name, key, label], index) => {
        const at = times[key];
        const state = index < current || (index === current && name === 'READY') ? 'done' : index === current ? 'current' : 'pending';
        return h(
          'li',
          { class: `phase ${state}`, 'data-phase': name, 'aria-current': state === 'current' ? 'step' : undefined },
          h('span', { class: 'phase-name' }, label),
          h('span', { class: 'phase-state' }, state === 'done' ? ' ✓' : state === 'current' ? ' …' : ''),
          at ? h('span', { class: 'phase-time' }, ` ${new Date(at).toLocaleTimeString()} (+${((Date.parse(at) - first) / 1000).toFixed(1)} s)`) : null,
        );
      }),
    );
    detail.textContent = `${stateOf(status)[0]}`;
  };
  const progress = (event) => {
    detail.textContent = `${event.endpoint} is reachable — ${event.healthy} of ${event.total} devices`;
  };
  return { element, update, progress };
}
