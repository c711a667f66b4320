/**
 * Keeps the lab alive while someone looks at it: `beat()` every `everyMs` while the page is visible;
 * once hidden for longer than `hiddenGraceMs` it stops (the reaper may then expire the lab, as Educates
 * does), and it beats again as soon as the page is visible again.
 */
export function keepAlive(beat, { everyMs, hiddenGraceMs }) {
  let hiddenSince = document.visibilityState === 'hidden' ? Date.now() : undefined;
  const asleep = () => hiddenSince !== undefined && Date.now() - hiddenSince > hiddenGraceMs;
  const timer = setInterval(() => asleep() || beat(), everyMs);
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') hiddenSince = Date.now();
    else {
      const wasAsleep = asleep();
      hiddenSince = undefined;
      if (wasAsleep) beat();
    }
  };
  document.addEventListener('visibilitychange', onVisibility);
  return {
    /** Hidden past the grace: nothing may renew the lab now. */
    asleep,
    stop: () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    },
  };
}
