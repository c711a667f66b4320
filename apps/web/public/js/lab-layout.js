import { confirmDialog, h } from './dom.js';
import { mediaButtons } from './media.js';
import { splitter } from './split.js';

const PANES = [
  ['guide', 'Guide'],
  ['lab', 'Terminals'],
  ['topology', 'Topology'],
];

/** "End this lab?" before it is ended: its devices, and what was done in them, go. */
const confirmEnd = (onEnd) =>
  confirmDialog({
    title: 'End this lab?',
    text: 'Its devices are removed, and what you did in them is not kept.',
    confirm: 'End the lab',
    cancel: 'Keep working',
    onConfirm: onEnd,
  });

/**
 * The lab page's frame. Wide screens: a header strip (lesson, the lab's state, stages, tools), then the
 * guide and the terminals side by side, each scrolling on its own, with a draggable divider; progress
 * and topology fill the terminals' side until READY, then fold into the strip ("Topology"). Phones: one
 * pane at a time (guide, terminals, topology) with a switch. State lives in data attributes on the root.
 */
export function labLayout(lesson, { onStage, onEnd, onRetry }) {
  const stages = lesson.Stages ?? [];
  const root = h('div', { class: 'lab', 'data-phase': 'starting', 'data-pane': 'guide' });
  const state = h('span', { class: 'lab-state', role: 'status', 'data-tone': 'busy' }, 'Starting…');
  const stageSelect = h(
    'select',
    { id: 'stage', onchange: () => onStage(Number(stageSelect.value)) },
    stages.map((s, i) => h('option', { value: i }, `${i + 1}. ${s.Description || `Stage ${i}`}`)),
  );
  const previous = h('button', { type: 'button', 'aria-label': 'Previous stage', onclick: () => onStage(Number(stageSelect.value) - 1) }, '←');
  const next = h('button', { type: 'button', 'aria-label': 'Next stage', onclick: () => onStage(Number(stageSelect.value) + 1) }, '→');
  const toggle = (attribute, button) => {
    const on = root.dataset[attribute] !== 'true';
    root.dataset[attribute] = String(on);
    button.setAttribute('aria-pressed', String(on));
  };
  const details = h('div', { class: 'lab-details', id: 'lab-details' });
  const detailsButton = h(
    'button',
    { type: 'button', class: 'details-button', 'aria-controls': 'lab-details', 'aria-pressed': 'false', onclick: () => toggle('details', detailsButton) },
    'Topology',
  );
  const wideButton = h('button', { type: 'button', class: 'wide-button', 'aria-pressed': 'false', onclick: () => toggle('wide', wideButton) }, 'Hide guide');
  const noticeText = h('span');
  const notice = h(
    'div',
    { class: 'lab-notice', role: 'alert', hidden: true },
    noticeText,
    h('button', { type: 'button', onclick: () => onRetry() }, 'Retry now'),
  );
  const banner = h('div', { class: 'lab-banner' });
  const guideSlot = h('section', { class: 'pane pane-guide', id: 'pane-guide', tabindex: -1, 'aria-label': 'Guide' });
  const terminalSlot = h('div', { class: 'terminal-slot' });
  const labPane = h('section', { class: 'pane pane-lab', id: 'pane-lab', 'aria-label': 'Lab' }, details, terminalSlot);
  const panes = h('div', { class: 'lab-panes' }, guideSlot, null, labPane);
  panes.insertBefore(splitter(panes), labPane);
  const paneSwitch = h(
    'div',
    { class: 'pane-switch', role: 'group', 'aria-label': 'Show' },
    PANES.map(([name, label]) =>
      h('button', { type: 'button', 'data-pane': name, 'aria-pressed': String(name === 'guide'), onclick: () => showPane(name) }, label),
    ),
  );
  const outcome = h('div', { class: 'lab-outcome' });

  function showPane(name) {
    root.dataset.pane = name;
    for (const button of paneSwitch.children) button.setAttribute('aria-pressed', String(button.dataset.pane === name));
  }

  root.append(
    h(
      'header',
      { class: 'lab-bar' },
      h('div', { class: 'lab-heading' }, h('h1', { class: 'lab-title' }, lesson.Name || lesson.Slug), state),
      h('nav', { class: 'stages', 'aria-label': 'Stages' }, previous, h('label', { for: 'stage', class: 'sr-only' }, 'Stage'), stageSelect, next),
      h(
        'div',
        { class: 'lab-actions' },
        detailsButton,
        mediaButtons(lesson),
        wideButton,
        h('button', { type: 'button', class: 'danger end-lab', onclick: () => confirmEnd(onEnd) }, 'End lab'),
      ),
    ),
    notice,
    banner,
    paneSwitch,
    panes,
    outcome,
  );

  return {
    element: root,
    guideSlot,
    terminalSlot,
    details,
    /** Under the strip, on every screen and pane (the waiting room). */
    banner,
    showPane,
    /** `starting` (progress and topology beside the guide), `ready` (folded into the strip), `over`. */
    setPhase: (phase) => void (root.dataset.phase = phase),
    setState(text, tone) {
      state.textContent = text;
      state.dataset.tone = tone;
    },
    setStage(stage, busy) {
      stageSelect.value = String(stage);
      // A narrow screen cuts a long stage name in the closed list: the whole name is its title.
      stageSelect.title = stageSelect.selectedOptions[0]?.textContent ?? '';
      previous.disabled = busy || stage <= 0;
      next.disabled = busy || stage >= stages.length - 1;
      stageSelect.disabled = busy;
    },
    setNotice(text) {
      notice.hidden = !text;
      noticeText.textContent = text ?? '';
    },
    showOutcome(element) {
      root.dataset.phase = 'over';
      outcome.replaceChildren(element);
    },
  };
}
