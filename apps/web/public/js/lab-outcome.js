import { h } from './dom.js';

/** A failure as the scheduler recorded it, in words a learner understands. */
export function learnerReason(raw = '') {
  if (/maximum number of liveLessons/i.test(raw)) return 'You have as many labs running as one learner may: end one you no longer use, then try again.';
  if (/deleted outside|endpoints are gone/i.test(raw)) return 'Its devices were removed outside the platform (by an operator or another tool).';
  // The most specific first: "Timeout or failure waiting for LiveEndpoints…: ImagePullBackOff" is about the image.
  if (/ImagePull|ErrImage|pulling image|InvalidImageName|manifest/i.test(raw)) return 'A device of the lab could not be loaded.';
  if (/CrashLoopBackOff|RunContainerError|CreateContainer/i.test(raw)) return 'A device of the lab stopped as soon as it started.';
  if (/quota|capacity|insufficient|exceeded|too many/i.test(raw)) return 'The platform has no room for another lab right now.';
  if (/config|job|napalm|ansible|python/i.test(raw)) return 'Setting up the devices for this stage did not work.';
  if (/timed? ?out|deadline|took longer|never (became|answered)|not reachable|unreachable|readiness/i.test(raw))
    return 'One of its devices did not start in time.';
  return 'Something went wrong on the platform while it set up your lab.';
}

const OUTCOMES = {
  endedHere: ['The lab has ended', 'You ended this lab. Its devices are being removed; nothing is kept.'],
  endedElsewhere: ['The lab has ended', 'This lab was ended in another tab or window of this browser.'],
  gone: ['The lab has ended', 'The platform removed this lab — after a while without activity, or an operator ended it.'],
  failed: ["The lab couldn't start", undefined],
  broken: ['The lab stopped working', undefined],
  refused: ["The lab couldn't start", undefined],
};

/**
 * What became of the lab, told at once: its end (by you, in another tab, or by the platform), its
 * failure, or the platform's refusal to start one, with its own words behind "Details", and one click to
 * start again.
 */
export function outcomeView(kind, { lesson, raw, onStartAgain }) {
  const [title, text] = OUTCOMES[kind];
  const problem = h('p', { class: 'failure', role: 'alert', hidden: true });
  const again = h(
    'button',
    {
      type: 'button',
      class: 'primary',
      onclick: async () => {
        again.disabled = true;
        problem.hidden = true;
        try {
          await onStartAgain();
        } catch (error) {
          problem.hidden = false;
          problem.textContent = `The lab could not be started again: ${error instanceof Error ? error.message : String(error)}`;
          again.disabled = false;
        }
      },
    },
    'Start again',
  );
  const view = h(
    'section',
    { class: `outcome ${kind === 'broken' ? 'failed' : kind}`, 'aria-labelledby': 'outcome-title', 'data-outcome': kind },
    h('h2', { id: 'outcome-title' }, title),
    h(
      'p',
      { class: 'outcome-text' },
      text ?? `${learnerReason(raw)}${kind === 'refused' ? '' : ' You can start it again; if it keeps failing, try again later.'}`,
    ),
    raw ? h('details', {}, h('summary', {}, 'Details'), h('pre', { class: 'raw' }, raw)) : null,
    h('div', { class: 'outcome-actions' }, again, h('a', { href: '/', class: 'button' }, 'Back to the lessons')),
    problem,
  );
  queueMicrotask(() => again.focus());
  document.title = `${lesson.Name || lesson.Slug} — ${title.toLowerCase()}`;
  return view;
}
