import { h } from './dom.js';

const KEY = 'antidote.guideShare';
const MIN = 0.2;
const MAX = 0.75;
const clamp = (share) => Math.min(MAX, Math.max(MIN, share));

/**
 * The divider between the guide and the terminals: dragged with a pointer or moved with the arrow keys
 * (Home / End for the bounds), its place remembered in this browser. Sets `--guide-share` on `container`.
 */
export function splitter(container) {
  let share = clamp(Number(localStorage.getItem(KEY)) || 0.45);
  const divider = h('div', {
    class: 'divider',
    role: 'separator',
    tabindex: 0,
    'aria-orientation': 'vertical',
    'aria-controls': 'pane-guide',
    'aria-label': 'Resize the guide',
    'aria-valuemin': MIN * 100,
    'aria-valuemax': MAX * 100,
  });
  const apply = (next, remember) => {
    share = clamp(next);
    container.style.setProperty('--guide-share', String(share));
    divider.setAttribute('aria-valuenow', String(Math.round(share * 100)));
    if (remember) localStorage.setItem(KEY, String(share));
  };
  divider.addEventListener('pointerdown', (event) => {
    event.preventDefault();
    divider.setPointerCapture(event.pointerId);
    container.classList.add('dragging');
    const box = container.getBoundingClientRect();
    const move = (moved) => apply((moved.clientX - box.left) / box.width, false);
    const up = () => {
      divider.removeEventListener('pointermove', move);
      container.classList.remove('dragging');
      apply(share, true);
    };
    divider.addEventListener('pointermove', move);
    divider.addEventListener('pointerup', up, { once: true });
    divider.addEventListener('pointercancel', up, { once: true });
  });
  divider.addEventListener('keydown', (event) => {
    const steps = { ArrowLeft: -0.05, ArrowRight: 0.05, Home: -1, End: 1 };
    if (!(event.key in steps)) return;
    event.preventDefault();
    apply(share + steps[event.key], true);
  });
  apply(share, false);
  return divider;
}
