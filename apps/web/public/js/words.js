/** Numbers and times in a learner's words. */

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st. */
export function ordinal(n) {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** A wait of `seconds`: "about 3 min", "about 1 h 20 min"; "a few moments" when unknown or under a minute. */
export function waitInWords(seconds) {
  if (!Number.isFinite(seconds) || seconds < 60) return 'a few moments';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min`;
  const rest = minutes % 60;
  return `about ${Math.floor(minutes / 60)} h${rest ? ` ${rest} min` : ''}`;
}

/** "7th in line, about 3 min": a waiting lab's place and its estimated wait. */
export const lineInWords = (position, estimatedWaitSeconds) => `${ordinal(position)} in line, ${waitInWords(estimatedWaitSeconds)}`;

/** "You are 7th in line, about 3 min". */
export const placeInWords = (position, estimatedWaitSeconds) => `You are ${lineInWords(position, estimatedWaitSeconds)}`;

/** How long ago an ISO time was: "just now", "5 min ago", "2 h ago". */
export function agoInWords(iso, now = Date.now()) {
  const minutes = Math.floor((now - Date.parse(iso)) / 60_000);
  if (!Number.isFinite(minutes) || minutes < 1) return 'just now';
  return minutes < 60 ? `${minutes} min ago` : `${Math.floor(minutes / 60)} h ago`;
}

/** An ISO time as the clock shows it ("14:05"), on another day with its date. */
export function clockTime(iso) {
  const at = new Date(iso);
  const time = at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return at.toDateString() === new Date().toDateString() ? time : `${at.toLocaleDateString()} ${time}`;
}
