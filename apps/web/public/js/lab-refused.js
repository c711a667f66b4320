import { api } from './api.js';
import { h } from './dom.js';
import { outcomeView } from './lab-outcome.js';
import { myLabs } from './my-labs.js';
import { requestLab, storedLab } from './session.js';
import { tellEnded } from './tabs-sync.js';

const TITLES = {
  NEW_LAB_RATE: 'Many labs were just started from your network',
  NEW_SESSION_RATE: 'Many people on your network just started',
  QUEUE_FULL: 'Every lab is in use and the line is full',
  LIVE_SESSION_LIMIT: 'Your network holds too many sessions',
};

/** The name of the lab to end, as "my labs" lists it (its lesson's slug should the list not say). */
async function nameOf(sessionId, detail) {
  const labs = await api.sessionLabs(sessionId).catch(() => []);
  return labs.find((lab) => lab.ID === detail.oldestLiveLessonId)?.LessonName || detail.oldestLessonSlug || 'your oldest lab';
}

function actionButton(label, className, action, problem) {
  const button = h(
    'button',
    {
      type: 'button',
      class: className,
      onclick: async () => {
        button.disabled = true;
        problem.hidden = true;
        try {
          await action();
        } catch (error) {
          problem.hidden = false;
          problem.textContent = error?.detail?.learnerMessage ?? `That did not work: ${error instanceof Error ? error.message : String(error)}`;
          button.disabled = false;
        }
      },
    },
    label,
  );
  return button;
}

/** "You can try again in 40 s", counting down; then the button to try again. */
function retryLater(seconds, onRetry, problem) {
  const again = actionButton('Try again', 'primary', onRetry, problem);
  const when = h('p', { class: 'retry-when', role: 'timer' });
  const until = Date.now() + Math.max(0, seconds ?? 0) * 1000;
  const tick = () => {
    const left = Math.ceil((until - Date.now()) / 1000);
    again.disabled = left > 0;
    when.textContent = left > 0 ? `You can try again in ${left} s.` : 'You can try again now.';
    if (left > 0) setTimeout(tick, 1000);
  };
  tick();
  return [when, again];
}

/**
 * The platform would not start a lab now, said in a learner's words with what to do next:
 * - the session holds its most labs (`LIVE_LESSON_LIMIT`): "End <the oldest> and start this one", one
 *   click (the same request with `replaceOldest`), or choose in "my labs";
 * - too many new labs or sessions from this network, or a full waiting line: the platform's words and
 *   when to try again (`Retry-After`);
 * - anything else as a failure to start, with "Start again".
 * `onStarted(id)` adopts a lab started from here.
 */
export async function refusedView(error, { lesson, slug, stage, sessionId, onStarted }) {
  const detail = error.detail;
  const retry = async () => location.reload();
  if (!detail?.reason) return outcomeView('refused', { lesson, raw: error.message, onStartAgain: retry });
  const problem = h('p', { class: 'failure', role: 'alert', hidden: true });
  let title = TITLES[detail.reason] ?? "The lab couldn't start";
  let text = detail.learnerMessage || error.message;
  let actions;
  let when = null;
  if (detail.reason === 'LIVE_LESSON_LIMIT') {
    const oldest = await nameOf(sessionId, detail);
    title = `You already have ${detail.limit ?? 'the most'} labs open`;
    text = `That is the most you can have at once. End one to start ${lesson.Name || slug}: ${oldest} is the one you used least recently.`;
    const replace = async () => {
      const answer = await requestLab(slug, stage, sessionId, true);
      storedLab.forget(detail.oldestLessonSlug, detail.oldestLiveLessonId);
      tellEnded(detail.oldestLessonSlug, detail.oldestLiveLessonId);
      onStarted(answer.id);
    };
    const choose = () => myLabs.open({ onClose: (ended) => ended && location.reload() });
    actions = [
      actionButton(`End ${oldest} and start this one`, 'primary replace-oldest', replace, problem),
      h('button', { type: 'button', onclick: choose }, 'Choose in my labs'),
    ];
  } else {
    const [countdown, again] = retryLater(error.retryAfterSeconds, retry, problem);
    when = countdown;
    actions = [again];
  }
  const view = h(
    'section',
    { class: 'outcome refused', 'aria-labelledby': 'outcome-title', 'data-outcome': 'refused', 'data-reason': detail.reason },
    h('h2', { id: 'outcome-title' }, title),
    h('p', { class: 'outcome-text' }, text),
    when,
    h('div', { class: 'outcome-actions' }, actions, h('a', { href: '/', class: 'button' }, 'Back to the lessons')),
    problem,
  );
  queueMicrotask(() => view.querySelector('.outcome-actions button:not(:disabled)')?.focus());
  document.title = `${lesson.Name || slug} — ${title.toLowerCase()}`;
  return view;
}
