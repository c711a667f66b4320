import { h } from './dom.js';

const W = 640;
const H = 320;

/**
 * The lab as an SVG: endpoints (from the lesson definition) on a circle, its connections as lines, each
 * endpoint's state as colour and text (health progress: "reachable" once it answered, "starting" before).
 */
export function topologyView(lesson) {
  const endpoints = lesson.Endpoints ?? [];
  const radius = endpoints.length > 1 ? Math.min(W, H) / 2 - 60 : 0;
  const place = new Map(
    endpoints.map((endpoint, i) => {
      const angle = (2 * Math.PI * i) / Math.max(endpoints.length, 1) - Math.PI / 2;
      return [endpoint.Name, { x: W / 2 + radius * Math.cos(angle), y: H / 2 + radius * Math.sin(angle) }];
    }),
  );
  const states = new Map(endpoints.map((endpoint) => [endpoint.Name, 'starting']));
  const svg = h('svg:svg', { viewBox: `0 0 ${W} ${H}`, class: 'topology', role: 'img', 'aria-labelledby': 'topology-title topology-desc' });
  const title = h('svg:title', { id: 'topology-title' }, `Topology of ${lesson.Name || lesson.Slug}`);
  const desc = h('svg:desc', { id: 'topology-desc' });

  const render = () => {
    const lines = (lesson.Connections ?? [])
      .filter((c) => place.has(c.A) && place.has(c.B))
      .map((c) => h('svg:line', { class: 'link', x1: place.get(c.A).x, y1: place.get(c.A).y, x2: place.get(c.B).x, y2: place.get(c.B).y }));
    const nodes = endpoints.map((endpoint) => {
      const { x, y } = place.get(endpoint.Name);
      const state = states.get(endpoint.Name);
      return h(
        'svg:g',
        { class: `node ${state}`, 'data-endpoint': endpoint.Name, 'data-state': state },
        h('svg:circle', { cx: x, cy: y, r: 28 }),
        h('svg:text', { x, y: y + 46, 'text-anchor': 'middle', class: 'label' }, endpoint.Name),
        h('svg:text', { x, y: y + 62, 'text-anchor': 'middle', class: 'state' }, state),
      );
    });
    desc.textContent =
      endpoints.map((e) => `${e.Name}: ${states.get(e.Name)}`).join('; ') +
      (lesson.Connections?.length ? `. Links: ${lesson.Connections.map((c) => `${c.A}–${c.B}`).join(', ')}` : '');
    svg.replaceChildren(title, desc, ...lines, ...nodes);
  };
  render();
  return {
    element: h('section', { class: 'topology-panel', 'aria-labelledby': 'topology-heading' }, h('h2', { id: 'topology-heading' }, 'Topology'), svg),
    reachable(name) {
      if (states.has(name)) states.set(name, 'reachable');
      render();
    },
    all(state) {
      for (const name of states.keys()) states.set(name, state);
      render();
    },
  };
}
