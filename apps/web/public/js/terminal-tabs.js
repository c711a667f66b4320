import { h } from './dom.js';
import { openTerminal } from './terminal.js';

/**
 * The lab's tabs as antidote-web built them: one per presentation of each endpoint, endpoints by name; a
 * tab's id is the endpoint's name when it has one presentation, else `<endpoint>-<presentation>`,
 * lower-cased (the ids guides name in runSnippetInTab / switchToTab).
 */
export function labTabs(live) {
  const endpoints = Object.values(live.LiveEndpoints ?? {}).sort((a, b) => (a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : 0));
  return endpoints.flatMap((endpoint) => {
    const presentations = endpoint.LivePresentations ?? [];
    return presentations.map((presentation) => {
      const single = presentations.length === 1;
      return {
        id: (single ? endpoint.Name : `${endpoint.Name}-${presentation.Name}`).toLowerCase(),
        label: single ? endpoint.Name : `${endpoint.Name} · ${presentation.Name}`,
        endpoint: endpoint.Name,
        presentation: presentation.Name,
        type: presentation.Type,
        hepDomain: presentation.HepDomain,
      };
    });
  });
}

/**
 * The terminals: a tab per presentation (SSH: a terminal, opened when first shown; HTTP: a link to its
 * page). `run(tabId, text)` types into that tab's terminal, which comes to the front and takes the focus;
 * `onShow()` lets the layout bring the terminals into view first (the phone's one-pane switch).
 */
export function terminalsView(live, sessionId, { onShow, onClosed }) {
  const tabs = labTabs(live);
  const list = h('div', { class: 'tab-list', role: 'tablist', 'aria-label': 'Terminals and web pages' });
  const panels = h('div', { class: 'tab-panels' });
  const open = new Map();
  let active;

  const panelOf = (tab) => panels.querySelector(`[data-tab="${CSS.escape(tab.id)}"]`);
  const select = (tab) => {
    active = tab;
    for (const button of list.children) {
      const selected = button.dataset.tab === tab.id;
      button.setAttribute('aria-selected', String(selected));
      button.tabIndex = selected ? 0 : -1;
    }
    for (const panel of panels.children) panel.hidden = panel.dataset.tab !== tab.id;
    if (tab.type === 'ssh' && !open.has(tab.id)) {
      const container = h('div', { class: 'term-box' });
      panelOf(tab).append(container);
      open.set(tab.id, openTerminal({ labId: live.ID, sessionId, tab, container, onClosed }));
    }
    open.get(tab.id)?.fit();
  };
  const find = (id) => tabs.find((tab) => tab.id === String(id).toLowerCase());

  tabs.forEach((tab, index) => {
    list.append(
      h(
        'button',
        {
          type: 'button',
          role: 'tab',
          id: `tab-${tab.id}`,
          class: 'tab',
          'data-tab': tab.id,
          'data-endpoint': tab.endpoint,
          'aria-controls': `panel-${tab.id}`,
          tabindex: -1,
          onclick: () => select(tab),
          onkeydown: (event) => {
            const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
            if (!step) return;
            const next = tabs[(index + step + tabs.length) % tabs.length];
            select(next);
            list.querySelector(`[data-tab="${CSS.escape(next.id)}"]`).focus();
          },
        },
        tab.label,
      ),
    );
    const body =
      tab.type === 'ssh'
        ? []
        : [
            h('p', {}, `${tab.label} is a web page of the lab.`),
            h(
              'p',
              {},
              h(
                'a',
                { class: 'button', href: `${location.protocol}//${tab.hepDomain}/`, target: '_blank', rel: 'noopener noreferrer' },
                `Open ${tab.label} (new tab)`,
              ),
            ),
          ];
    panels.append(
      h(
        'div',
        { role: 'tabpanel', id: `panel-${tab.id}`, class: `tab-panel ${tab.type}`, 'aria-labelledby': `tab-${tab.id}`, 'data-tab': tab.id, hidden: true },
        body,
      ),
    );
  });

  return {
    element: h(
      'section',
      { class: 'terminals', 'aria-label': 'Terminals' },
      tabs.length ? [list, panels] : h('p', { class: 'muted' }, 'This lesson has no terminals.'),
    ),
    /** The first tab, as antidote-web selected it on a desktop. */
    start: () => tabs[0] && select(active ?? tabs[0]),
    /** Terminal tabs, for "Run in terminal" without a named target. */
    terminals: () => tabs.filter((tab) => tab.type === 'ssh'),
    has: (id) => !!find(id),
    run(id, text) {
      const tab = find(id);
      if (!tab || tab.type !== 'ssh') return false;
      onShow();
      select(tab);
      open.get(tab.id).type(text);
      open.get(tab.id).focus();
      return true;
    },
    switchTo(id) {
      const tab = find(id);
      if (!tab) return false;
      onShow();
      select(tab);
      (open.get(tab.id) ?? list.querySelector(`[data-tab="${CSS.escape(tab.id)}"]`)).focus();
      return true;
    },
    refit: () => active && open.get(active.id)?.fit(),
    close: () => open.forEach((terminal) => terminal.close()),
  };
}
