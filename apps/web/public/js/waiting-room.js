import { h } from './dom.js';
import { stateOf } from './progress.js';
import { ordinal, placeInWords } from './words.js';

/**
 * The waiting room: while every lab of the platform is in use, the lab waits in line and the page says
 * where it stands ("You are 7th in line, about 3 min") under the strip, on every screen, from the event
 * stream's `queue` events (or the lab's `QueuePosition` when the page had to ask), and the strip says
 * "Waiting · 7th in line". Hidden once the lab leaves the line.
 */
export function waitingRoom(layout) {
  const place = h('strong', { class: 'waiting-place' });
  const element = h(
    'section',
    { class: 'waiting-room', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true', hidden: true },
    place,
    h(
      'span',
      { class: 'waiting-text' },
      ' Every lab is in use right now; yours starts as soon as one is free. Keep this page open to keep your place — you can read the guide meanwhile.',
    ),
  );
  layout.banner.append(element);
  let position = 0;
  const set = (event) => {
    position = Number.isInteger(event.position) && event.position > 0 ? event.position : 0;
    element.hidden = position === 0;
    element.dataset.position = String(position);
    if (position) place.textContent = `${placeInWords(position, event.estimatedWaitSeconds)}.`;
  };
  const waitingState = () => [`Waiting · ${ordinal(position)} in line`, 'busy'];

  return {
    /** A `queue` event `{ position, estimatedWaitSeconds? }` (position 0: it left the line and is being built). */
    queue(event) {
      const waited = position > 0;
      set(event);
      if (position) layout.setState(...waitingState());
      else if (waited) layout.setState('Starting…', 'busy');
    },
    /** The strip's words for the lab's status: its place while it waits. */
    stateOf(status) {
      if (status.status !== 'INITIALIZED') set({ position: 0 });
      return position ? waitingState() : stateOf(status);
    },
    leave: () => set({ position: 0 }),
  };
}
