import { api, ApiError, backOffMs, Unreachable } from './api.js';
import { keepAlive } from './keep-alive.js';

/** A followed stream sends a heartbeat every 15 s: this long without any event, the api is asked directly. */
const SILENCE_MS = 40_000;

/**
 * The lab's truth for as long as the page shows it: its event stream followed for the lab's whole life
 * (stage changes, failure, deletion), the keep-alive that renews it (never creating one) and tells when it
 * is gone, and the api's reachability: a dropped or silent stream makes the page ask the api at once, then
 * again with back-off (1 s … 30 s) while it cannot be reached. Calls `on.status(status)`,
 * `on.queue({ position, estimatedWaitSeconds? })` (its place while it waits in line), `on.progress(event)`,
 * `on.gone()`, `on.unreachable(retryInMs, reason)` and `on.reachable()`.
 */
export function watchLab(labId, sessionId, timings, on) {
  let source;
  let stopped = false;
  let lastEventAt = Date.now();
  let failures = 0;
  let reopenings = 0;
  let retry;
  let reopen;
  let probing;

  const heard = () => {
    lastEventAt = Date.now();
    reopenings = 0;
    if (!failures) return;
    // Back after an outage: the stream says nothing until the lab changes, so the api is asked its state now.
    reachable();
    void probe();
  };

  const open = () => {
    source?.close();
    source = new EventSource(api.eventsUrl(labId));
    source.addEventListener('status', (event) => {
      heard();
      const status = JSON.parse(event.data);
      if (status.deleted || status.error) stop();
      on.status(status);
    });
    source.addEventListener('progress', (event) => {
      heard();
      on.progress(JSON.parse(event.data));
    });
    // While the lab waits in line: its place, when it changes (position 0 once it leaves the line).
    source.addEventListener('queue', (event) => {
      heard();
      on.queue(JSON.parse(event.data));
    });
    source.addEventListener('heartbeat', heard);
    source.addEventListener('error', () => {
      if (stopped) return;
      // Refused (404, 429…): the browser gives up, so the page opens it again later, with back-off.
      if (source.readyState === EventSource.CLOSED) {
        clearTimeout(reopen);
        reopen = setTimeout(open, backOffMs(reopenings++));
      }
      // Dropped or refused, the api says what became of the lab (unless a retry is already due, or the
      // page is asleep: asking renews the lab, and a lab nobody looks at may expire).
      if (!failures && !alive.asleep()) void probe();
    });
  };

  const reachable = () => {
    failures = 0;
    clearTimeout(retry);
    on.reachable();
  };

  /** Renews the lab and learns its state: gone (404), or unreachable (retried with back-off). */
  const probe = () =>
    (probing ??= (async () => {
      if (stopped) return;
      try {
        const status = await api.renew(labId, sessionId);
        if (stopped) return;
        lastEventAt = Date.now();
        if (failures) reachable();
        if (status.error) stop();
        on.status(status);
        // Waiting in line without the stream (refused, or dropped): its place comes with the lab itself.
        if (!stopped && status.status === 'INITIALIZED' && source?.readyState !== EventSource.OPEN) await askPlace();
      } catch (error) {
        if (stopped) return;
        if (error instanceof ApiError && error.status === 404) {
          stop();
          on.gone();
          return;
        }
        const wait = backOffMs(failures++);
        on.unreachable(wait, error instanceof Unreachable || error instanceof ApiError ? error.message : String(error));
        clearTimeout(retry);
        retry = setTimeout(() => void probe(), wait);
      }
    })().finally(() => (probing = undefined)));

  const askPlace = async () => {
    const live = await api.liveLesson(labId);
    if (!stopped) on.queue({ position: live.QueuePosition ?? 0, estimatedWaitSeconds: live.EstimatedWaitSeconds });
  };

  // While a retry is due, it alone asks: neither the silence check nor the keep-alive adds requests.
  const alive = keepAlive(() => !failures && void probe(), { everyMs: timings.keepAliveMs, hiddenGraceMs: timings.hiddenGraceMs });
  const silence = setInterval(() => !failures && !alive.asleep() && Date.now() - lastEventAt > SILENCE_MS && void probe(), 5000);

  function stop() {
    stopped = true;
    source?.close();
    clearInterval(silence);
    clearTimeout(retry);
    clearTimeout(reopen);
    alive.stop();
  }

  open();
  return {
    stop,
    /** Asks the api now (a terminal was refused, the learner pressed "retry"). */
    probe: () => void probe(),
  };
}
