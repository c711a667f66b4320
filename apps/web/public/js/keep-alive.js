/**
 * Keeps the lab alive while someone looks at it: `ping()` every `everyMs` while the page is visible;
 * once hidden for longer than `hiddenGraceMs` it stops (the reaper may then expire the lab, as Educates
 * does), and it pings again as soon as the page is visible again.
 */
export function keepAlive(ping, { everyMs, hiddenGraceMs }) {
  let hiddenSince = document.visibilityState === 'hidden' ? Date.now() : undefined;
  const beat = () => {
    if (hiddenSince !== undefined && Date.now() - hiddenSince > hiddenGraceMs) return;
    ping().catch(() => undefined); // a missed beat is retried by the next one
  };
  const timer = setInterval(beat, everyMs);
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') hiddenSince = Date.now();
    else {
      const wasAsleep = hiddenSince !== undefined && Date.now() - hiddenSince > hiddenGraceMs;
      hiddenSince = undefined;
      if (wasAsleep) beat();
    }
  };
  document.addEventListener('visibilitychange', onVisibility);
  return () => {
    clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisibility);
  };
}
