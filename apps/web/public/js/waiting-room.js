import { h } from './dom.js';
import { ordinal, placeInWords } from './words.js';

/**
 * The waiting room: while every lab of the platform is in use, the lab waits in line and the page says
 * where it stands ("You are 7th in line, about 3 min"), from the event stream's `queue` events (or the
 * lab's `QueuePosition` when the page had to ask). Hidden once the lab leaves the line.
 */
export function waitingRoomView() {
  const place = h('strong', { class: 'waiting-place' });
  const element = h('section', { class: 'waiting-room', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true', hidden: true },
    place,
    h('span', { class: 'waiting-text' }, ' Every lab is in use right now; yours starts as soon as one is free. Keep this page open to keep your place — you can read the guide meanwhile.'),
  );
  let position = 0;
  return {
    element,
    /** The place in line (0: not waiting). */
    position: () => position,
    /** `{ position, estimatedWaitSeconds? }`; answers whether the lab waits. */
    update(event) {
      position = Number.isInteger(event.position) && event.position > 0 ? event.position : 0;
      element.hidden = position === 0;
      element.dataset.position = String(position);
      if (position) place.textContent = `${placeInWords(position, event.estimatedWaitSeconds)}.`;
      return position > 0;
    },
  };
}

/** The header strip's words for a waiting lab. */
export const waitingState = (position) => `Waiting · ${ordinal(position)} in line`;
