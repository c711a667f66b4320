import { api } from './api.js';
import { announce, h, show } from './dom.js';
import { guideView } from './guide.js';
import { keepAlive } from './keep-alive.js';
import { progressView, watchProgress } from './progress.js';
import { ensureSession, requestLab } from './session.js';
import { terminalsView } from './terminal.js';
import { topologyView } from './topology.js';

/** The lab page of `/labs/?lessonSlug=S&lessonStage=N`. */
export async function renderLab(slug, requestedStage) {
  show(h('p', { role: 'status' }, 'Loading the lesson…'));
  const [lesson, config] = await Promise.all([api.lesson(slug), api.webConfig()]);
  const stages = lesson.Stages ?? [];
  let stage = Number.isInteger(requestedStage) && requestedStage >= 0 && requestedStage < stages.length ? requestedStage : 0;
  let sessionId = await ensureSession();
  let liveId;
  let stopKeepAlive = () => undefined;
  let watcher;
  let terminals;

  const progress = progressView();
  const topology = topologyView(lesson);
  const guideSlot = h('div', { class: 'guide-slot' });
  const terminalSlot = h('div', { class: 'terminal-slot' });
  const presentations = h('ul', { class: 'presentations', 'aria-label': 'Web pages of the lab' });
  const stageSelect = h('select', { id: 'stage' }, stages.map((s, i) => h('option', { value: i }, `${i}: ${s.Description || `Stage ${i}`}`)));
  const previous = h('button', { type: 'button', onclick: () => changeStage(stage - 1) }, '← Previous stage');
  const next = h('button', { type: 'button', onclick: () => changeStage(stage + 1) }, 'Next stage →');
  const end = h('button', { type: 'button', class: 'danger', onclick: () => void endLab() }, 'End lab');
  const navigation = h('nav', { class: 'stages', 'aria-label': 'Stages' }, previous, h('label', { for: 'stage' }, 'Stage'), stageSelect, next, end);
  stageSelect.addEventListener('change', () => changeStage(Number(stageSelect.value)));

  const syncNavigation = (busy) => {
    stageSelect.value = String(stage);
    previous.disabled = busy || stage === 0;
    next.disabled = busy || stage >= stages.length - 1;
    stageSelect.disabled = busy;
  };

  show(
    h('h1', {}, lesson.Name || slug),
    h('p', { class: 'muted' }, lesson.Description || ''),
    navigation,
    h('div', { class: 'lab-grid' }, h('div', { class: 'lab-side' }, progress.element, topology.element, presentations, guideSlot), terminalSlot),
  );

  /** Requests the stage, follows its progress, then shows the guide (and, the first time, the terminals). */
  async function go() {
    syncNavigation(true);
    const url = new URL(location.href);
    url.searchParams.set('lessonStage', String(stage));
    history.replaceState(null, '', url);
    ({ id: liveId, sessionId } = await requestLab(slug, stage, sessionId));
    watcher?.close();
    watcher = watchProgress(liveId, {
      onStatus: (status) => {
        progress.update(status);
        if (status.status === 'READY') topology.all('reachable');
      },
      onProgress: (event) => {
        progress.progress(event);
        topology.reachable(event.endpoint);
      },
    });
    const final = await watcher.done;
    if (final.error) {
      topology.all('failed');
      announce('The lab failed to start');
      return;
    }
    if (final.deleted) return ended('The lab was ended elsewhere.');
    const live = await api.liveLesson(liveId);
    guideSlot.replaceChildren(guideView(live, (endpoint, text) => terminals?.run(endpoint, text)));
    presentations.replaceChildren(
      ...Object.values(live.LiveEndpoints ?? {}).flatMap((endpoint) =>
        (endpoint.LivePresentations ?? [])
          .filter((p) => p.Type === 'http')
          .map((p) => h('li', {}, h('a', { href: `${location.protocol}//${p.HepDomain}/`, target: '_blank', rel: 'noopener noreferrer' }, `${endpoint.Name}: ${p.Name} (opens a new tab)`))),
      ),
    );
    if (!terminals) {
      terminals = terminalsView(live, sessionId);
      terminalSlot.replaceChildren(terminals.element);
      terminals.start();
    }
    syncNavigation(false);
    announce(`Stage ${stage} is ready`);
  }

  function changeStage(target) {
    if (target < 0 || target >= stages.length || target === stage) return;
    stage = target;
    void go().catch(fail);
  }

  async function endLab() {
    end.disabled = true;
    stopKeepAlive();
    watcher?.close();
    terminals?.close();
    try {
      if (liveId) await api.endLab(liveId, sessionId);
      ended('The lab was ended. Its devices are being removed.');
    } catch (error) {
      end.disabled = false;
      fail(error);
    }
  }

  function ended(message) {
    stopKeepAlive();
    terminals?.close();
    show(h('h1', {}, lesson.Name || slug), h('p', { class: 'ended', role: 'status' }, message), h('p', {}, h('a', { href: '/' }, 'Back to the lessons')));
  }

  function fail(error) {
    progress.update({ status: 'INITIALIZED', error: true, failureReason: error instanceof Error ? error.message : String(error), phaseTimes: {} });
    syncNavigation(false);
  }

  stopKeepAlive = keepAlive(() => (liveId ? requestLab(slug, stage, sessionId) : Promise.resolve()), { everyMs: config.keepAliveMs, hiddenGraceMs: config.hiddenGraceMs });
  window.addEventListener('pagehide', () => stopKeepAlive());
  await go().catch(fail);
}
