import { api, ApiError, untilReachable } from './api.js';
import { announce, h, show, toast } from './dom.js';
import { guideView } from './guide.js';
import { labLayout } from './lab-layout.js';
import { outcomeView } from './lab-outcome.js';
import { refusedView } from './lab-refused.js';
import { watchLab } from './lab-watch.js';
import { videoButton } from './media.js';
import { myLabs } from './my-labs.js';
import { progressView } from './progress.js';
import { ensureSession, findOrRequestLab, requestLab, storedLab } from './session.js';
import { tabsSync } from './tabs-sync.js';
import { terminalsView } from './terminal-tabs.js';
import { topologyView } from './topology.js';
import { waitingRoom } from './waiting-room.js';

/** xterm's stylesheet, on the lab page only (the catalogue loads none of xterm). */
const loadTerminalStyles = () => document.head.append(h('link', { rel: 'stylesheet', href: new URL('../vendor/xterm.css', import.meta.url).href }));
const waiting = (ms) => show(h('p', { role: 'status' }, `Cannot reach the platform; trying again in ${Math.round(ms / 1000)} s…`));

/**
 * The lab page of `/labs/?lessonSlug=S[&lessonStage=N]`: resumes this browser's running lab of the lesson
 * at its stage (or the stage the URL names), else requests one; then tells the lab's truth for as long as
 * the page is open (lab-watch.js), keeps the browser's tabs on one lab and one stage, and puts the stage
 * in the browser's history.
 */
export async function renderLab(slug, requestedStage) {
  loadTerminalStyles();
  show(h('p', { role: 'status' }, 'Loading the lesson…'));
  const [lesson, timings] = await untilReachable(() => Promise.all([api.lesson(slug), api.webConfig()]), waiting);
  document.title = lesson.Name || slug;
  const stages = lesson.Stages ?? [];
  const valid = (stage) => Number.isInteger(stage) && stage >= 0 && stage < stages.length;
  let sessionId = await untilReachable(ensureSession, waiting);
  const lab = { id: undefined, stage: valid(requestedStage) ? requestedStage : 0, ready: false, ending: false, over: false, live: undefined, guideFor: -1 };
  let watch;
  let terminals;
  let guideLoads = 0;

  const progress = progressView();
  const topology = topologyView(lesson);
  const layout = labLayout(lesson, { onStage: (stage) => void changeStage(stage, 'push'), onEnd: () => void endLab(), onRetry: () => watch?.probe() });
  layout.details.append(progress.element, topology.element);
  const line = waitingRoom(layout);
  const sync = tabsSync(slug, onMessage);

  const setUrl = (how) => {
    const url = new URL(location.href);
    url.searchParams.set('lessonStage', String(lab.stage));
    history[how === 'push' ? 'pushState' : 'replaceState']({ stage: lab.stage }, '', url);
  };
  const actions = {
    run: (tab, text) =>
      terminals ? terminals.run(tab, text) || toast(`This lab has no terminal named “${tab}”.`) : toast('The terminals open once the lab is ready.'),
    switchTo: (tab) => (terminals ? terminals.switchTo(tab) || toast(`This lab has no tab named “${tab}”.`) : toast('The tabs open once the lab is ready.')),
    tabs: () => terminals?.terminals() ?? [],
    notice: toast,
  };

  /** The shown stage's guide (and, once READY, the terminals), from the live lesson. */
  async function loadGuide() {
    const load = ++guideLoads;
    lab.guideFor = lab.stage;
    const live = await untilReachable(
      () => api.liveLesson(lab.id),
      () => undefined,
    ).catch((error) => {
      if (error instanceof ApiError) watch?.probe(); // gone or failed: the watch says which
      return undefined;
    });
    if (load !== guideLoads || lab.over) return;
    if (!live) return void (lab.guideFor = -1);
    lab.live = live;
    lab.guideFor = live.CurrentStage;
    const stage = stages[live.CurrentStage];
    const next = valid(live.CurrentStage + 1)
      ? h(
          'button',
          { type: 'button', class: 'primary', onclick: () => void changeStage(live.CurrentStage + 1, 'push') },
          `Next: ${stages[live.CurrentStage + 1].Description || `stage ${live.CurrentStage + 1}`} →`,
        )
      : null;
    layout.guideSlot.replaceChildren(
      videoButton(lesson, stage?.StageVideo, `Video — ${stage?.Description ?? ''}`, 'Video of this stage') ?? '',
      guideView(live, lesson, actions),
      h('div', { class: 'guide-end' }, next),
    );
    layout.guideSlot.scrollTop = 0;
    if (lab.ready) openTerminals();
  }

  function openTerminals() {
    if (terminals || !lab.live || lab.over) return;
    terminals = terminalsView(lab.live, sessionId, { onShow: () => layout.showPane('lab'), onClosed: (code) => code >= 4400 && watch?.probe() });
    layout.terminalSlot.replaceChildren(terminals.element);
    terminals.start();
  }

  function onStatus(status) {
    if (lab.over) return;
    if (status.deleted) return finish('gone');
    if (status.error) return finish(lab.ready ? 'broken' : 'failed', status.failureReason || 'no reason was recorded');
    progress.update(status);
    layout.setState(...line.stateOf(status));
    if (status.stage !== lab.stage) {
      lab.stage = status.stage;
      setUrl('replace');
      announce(`The lab moved to stage ${status.stage + 1}`);
    }
    const ready = status.status === 'READY';
    layout.setStage(lab.stage, !ready);
    if (ready) {
      topology.all('reachable');
      if (!lab.ready) announce(`${lesson.Name || slug} is ready`);
      lab.ready = true;
      layout.setPhase('ready');
      openTerminals();
    }
    // The guide is read once the lab's first state is known (a failed lab has none to give).
    if (lab.guideFor !== lab.stage) void loadGuide();
  }

  async function changeStage(target, how) {
    if (!valid(target) || target === lab.stage || lab.over) return;
    const previous = lab.stage;
    lab.stage = target;
    setUrl(how);
    layout.setStage(target, true);
    try {
      const answer = await requestLab(slug, target, sessionId);
      if (answer.id !== lab.id) return location.reload(); // the session had expired: a new lab
      sync.post({ kind: 'stage', id: lab.id, stage: target });
      layout.setState('Changing stage…', 'busy');
      await loadGuide();
    } catch (error) {
      lab.stage = previous;
      setUrl('replace');
      layout.setStage(previous, !lab.ready);
      toast(`The stage could not be changed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  function onMessage(message) {
    if (message.kind === 'started' && (lab.over || message.id !== lab.id)) return location.reload();
    if (message.id !== lab.id || lab.over) return;
    if (message.kind === 'ended') finish(message.here ? 'endedHere' : 'endedElsewhere');
    if (message.kind === 'stage' && valid(message.stage) && message.stage !== lab.stage) {
      lab.stage = message.stage;
      setUrl('replace');
      layout.setStage(lab.stage, true);
      void loadGuide();
    }
  }

  async function endLab() {
    lab.ending = true;
    try {
      await api.endLab(lab.id, sessionId);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) {
        lab.ending = false;
        return toast(`The lab could not be ended: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    sync.post({ kind: 'ended', id: lab.id });
    finish('endedHere');
  }

  function finish(reason, raw) {
    if (lab.over) return;
    // Its deletion may be seen on the stream before the learner's own request has answered.
    const kind = lab.ending && reason === 'gone' ? 'endedHere' : reason;
    lab.over = true;
    watch?.stop();
    terminals?.close();
    storedLab.forget(slug, lab.id);
    layout.setNotice(undefined);
    line.leave();
    void myLabs.refresh();
    const failed = kind === 'failed' || kind === 'broken';
    layout.setState(failed ? 'Failed' : 'Ended', 'over');
    layout.showOutcome(outcomeView(kind, { lesson, raw, onStartAgain: startAgain }));
    announce(failed ? 'The lab failed' : 'The lab has ended');
  }

  /** A new lab at the same stage; refused (a limit, a full line), the refusal with what to do next. */
  function startAgain() {
    return requestLab(slug, lab.stage, sessionId).then(
      (answer) => adopt(answer.id),
      async (error) => {
        if (!(error instanceof ApiError && error.detail?.reason)) throw error;
        layout.showOutcome(await refused(error));
      },
    );
  }

  /** A new lab of this lesson, requested here: this page and the lesson's other tabs show it. */
  function adopt(id) {
    storedLab.set(slug, id);
    sync.post({ kind: 'started', id });
    location.reload();
  }
  const refused = (error) => refusedView(error, { lesson, slug, stage: lab.stage, sessionId, onStarted: adopt });

  /** Resumed where it is (or moved to the stage the URL names), else a new lab, which the other tabs adopt. */
  async function resumeOrRequest() {
    const found = await findOrRequestLab(slug, lab.stage, sessionId, waiting);
    ({ id: lab.id, sessionId } = found);
    if (!found.running) return sync.post({ kind: 'started', id: lab.id });
    lab.stage = found.running.stage;
    if (valid(requestedStage) && requestedStage !== lab.stage && found.running.status === 'READY') await changeStage(requestedStage, 'replace');
  }

  try {
    await resumeOrRequest();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // Refused (a limit, the platform at capacity, a lesson with problems): said in words, with what to do next.
    return show(h('div', { class: 'lab-outcome' }, await refused(error)));
  }
  void myLabs.refresh();
  show(layout.element);
  setUrl('replace');
  layout.setStage(lab.stage, true);
  watch = watchLab(lab.id, sessionId, timings, {
    status: onStatus,
    queue: (event) => lab.over || line.queue(event),
    progress: (event) => (progress.progress(event), topology.reachable(event.endpoint)),
    gone: () => finish('gone'),
    unreachable: (ms, reason) => (
      layout.setNotice(`Cannot reach the platform (${reason}). Trying again in ${Math.round(ms / 1000)} s.`),
      layout.setState('No connection', 'bad')
    ),
    reachable: () => layout.setNotice(undefined),
  });
  window.addEventListener('popstate', () => {
    const stage = Number.parseInt(new URL(location.href).searchParams.get('lessonStage') ?? '', 10);
    if (valid(stage) && stage !== lab.stage) void changeStage(stage, 'pop');
  });
}
