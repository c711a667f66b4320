import { api, ApiError } from './api.js';
import { announce, confirmDialog, h, toast } from './dom.js';
import { storedLab, storedSessionId } from './session.js';
import { tabsSync, tellEnded } from './tabs-sync.js';
import { agoInWords, clockTime, lineInWords } from './words.js';

/** The badge's count is read again this often while the page is visible (labs expire, lines move). */
const REFRESH_MS = 30_000;
/** While the panel is open (places in line move); also how often the page checks whether the count is due. */
const OPEN_REFRESH_MS = 3_000;

const labUrl = (lab) => `/labs/?lessonSlug=${encodeURIComponent(lab.LessonSlug)}&lessonStage=${lab.CurrentStage}`;
/** Labs that hold one of the session's places (what the limit counts). */
const holding = (labs) => labs.filter((lab) => !lab.Ending && !lab.Error);

/** A lab's state in a learner's words. */
function statusOf(lab) {
  if (lab.Ending) return 'Ending…';
  if (lab.Error) return lab.Status === 'READY' ? 'Stopped working' : "Couldn't start";
  if (lab.Status === 'READY') return 'Ready';
  if (lab.QueuePosition > 0) return lineInWords(lab.QueuePosition, lab.EstimatedWaitSeconds);
  return 'Starting';
}

const expiryOf = (lab) =>
  !lab.ExpiresAt ? 'kept while your session lasts' : lab.Error ? `removed at ${clockTime(lab.ExpiresAt)}` : `ends at ${clockTime(lab.ExpiresAt)} if unused`;

/**
 * "My labs": a header button with the number of labs this browser's session holds, opening a panel
 * that lists each (lesson, stage, state or place in line, last activity, expiry) with Resume (its lab
 * page) and End (asked first). It creates no session: without one it stays hidden.
 */
function createMyLabs() {
  let labs = [];
  let button;
  let count;
  let panel;
  let list;
  let loading;
  let stale = false;
  let lastAt = 0;

  const render = () => {
    count.textContent = String(holding(labs).length);
    button.setAttribute('aria-label', `My labs: ${holding(labs).length} open`);
    list?.replaceChildren(...(labs.length ? labs.map(item) : [h('li', { class: 'muted' }, 'You have no labs right now. Open a lesson to start one.')]));
  };

  /** Reads the session's labs (once at a time; asked meanwhile, once more after). */
  async function refresh() {
    if (loading) {
      stale = true;
      return loading;
    }
    loading = load().finally(() => (loading = undefined));
    await loading;
    if (stale) {
      stale = false;
      await refresh();
    }
  }

  async function load() {
    const sessionId = storedSessionId();
    if (!button || !sessionId) return;
    lastAt = Date.now();
    try {
      labs = await api.sessionLabs(sessionId);
      button.hidden = false;
      render();
    } catch (error) {
      // A session the platform forgot holds nothing; an unreachable api keeps what was shown.
      if (error instanceof ApiError && error.status === 404) button.hidden = true;
    }
  }

  function item(lab) {
    const name = lab.LessonName || lab.LessonSlug;
    return h(
      'li',
      { class: 'my-lab', 'data-lab': lab.ID, 'data-slug': lab.LessonSlug },
      h('h3', {}, name),
      h(
        'p',
        { class: 'my-lab-facts' },
        h('span', {}, `Stage ${lab.CurrentStage + 1}`),
        ' · ',
        h('span', { class: 'my-lab-status', 'data-position': lab.QueuePosition || undefined }, statusOf(lab)),
        ' · ',
        h('span', {}, `last used ${agoInWords(lab.LastActiveTime)}`),
        ' · ',
        h('span', {}, expiryOf(lab)),
      ),
      lab.Ending
        ? null
        : h(
            'div',
            { class: 'my-lab-actions' },
            h(
              'a',
              { class: 'button primary', href: labUrl(lab), 'aria-label': `Resume ${name}`, onclick: () => storedLab.set(lab.LessonSlug, lab.ID) },
              'Resume',
            ),
            h('button', { type: 'button', class: 'danger', 'aria-label': `End ${name}`, onclick: () => confirmEnd(lab, name) }, 'End'),
          ),
    );
  }

  function confirmEnd(lab, name) {
    confirmDialog({
      title: `End ${name}?`,
      text: 'Its devices are removed, and what you did in them is not kept.',
      confirm: 'End the lab',
      cancel: 'Keep it',
      onConfirm: () => void end(lab, name),
    });
  }

  async function end(lab, name) {
    try {
      await api.endLab(lab.ID, storedSessionId());
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404))
        return toast(`${name} could not be ended: ${error instanceof Error ? error.message : String(error)}`);
    }
    storedLab.forget(lab.LessonSlug, lab.ID);
    tellEnded(lab.LessonSlug, lab.ID);
    panel.dataset.ended = 'true';
    announce(`${name} has ended`);
    await refresh();
    // Its buttons are gone: the focus goes back to the top of the panel.
    if (panel.open && !panel.contains(document.activeElement)) panel.querySelector('h2')?.focus();
  }

  /** Opens the panel; `onClose(endedAny)` runs when it closes. */
  function open({ onClose } = {}) {
    if (panel?.open) return;
    list = h('ul', { class: 'my-labs-list', 'aria-live': 'polite' });
    panel = h(
      'dialog',
      { class: 'my-labs', 'aria-labelledby': 'my-labs-title' },
      h(
        'div',
        { class: 'dialog-head' },
        h('h2', { id: 'my-labs-title', tabindex: -1 }, 'My labs'),
        h('button', { type: 'button', autofocus: true, onclick: () => panel.close() }, 'Close'),
      ),
      h('p', { class: 'muted' }, 'The labs you have running. Ending one you no longer use makes room for another.'),
      list,
    );
    const shown = panel;
    shown.addEventListener('close', () => {
      shown.remove();
      list = undefined;
      onClose?.(shown.dataset.ended === 'true');
    });
    document.body.append(shown);
    render();
    shown.showModal();
    void refresh();
  }

  return {
    /** Puts the button in the page's header and keeps its count. */
    mount(header) {
      count = h('span', { class: 'my-labs-count' }, '0');
      button = h('button', { type: 'button', class: 'my-labs-button', hidden: true, 'aria-haspopup': 'dialog', onclick: () => open() }, 'My labs ', count);
      header.append(button);
      // A lab started or ended in any tab of the browser changes the count.
      tabsSync('*', () => void refresh());
      document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && void refresh());
      setInterval(() => document.visibilityState === 'visible' && (panel?.open || Date.now() - lastAt >= REFRESH_MS) && void refresh(), OPEN_REFRESH_MS);
      void refresh();
    },
    refresh,
    open,
  };
}

export const myLabs = createMyLabs();
