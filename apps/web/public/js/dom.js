/** Builds an element; strings become text nodes (never HTML). `on*` attributes with functions become listeners. */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElementNS(tag.startsWith('svg:') ? 'http://www.w3.org/2000/svg' : 'http://www.w3.org/1999/xhtml', tag.replace(/^svg:/, ''));
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
  return element;
}

/** Replaces the page's content and moves focus to it (keyboard and screen-reader users land on the new view). */
export function show(...children) {
  const main = document.getElementById('main');
  main.replaceChildren(...children);
  main.focus({ preventScroll: true });
}

/** A polite announcement for screen readers. */
export function announce(text) {
  const region = document.getElementById('announce');
  if (region) region.textContent = text;
}

let toastTimer;
/** A short message on screen for a few seconds (and to screen readers): what a click could not do. */
export function toast(text) {
  let box = document.getElementById('toast');
  if (!box) document.body.append((box = h('div', { id: 'toast', class: 'toast', role: 'status' })));
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.hidden = true), 6000);
}

/** A modal question ("End this lab?"): `onConfirm` runs on yes; the safe answer has the focus. */
export function confirmDialog({ title, text, confirm, cancel, onConfirm }) {
  const box = h(
    'dialog',
    { class: 'confirm', 'aria-labelledby': 'confirm-title' },
    h('h2', { id: 'confirm-title' }, title),
    h('p', {}, text),
    h(
      'div',
      { class: 'dialog-actions' },
      h('button', { type: 'button', class: 'danger', onclick: () => (box.close(), onConfirm()) }, confirm),
      h('button', { type: 'button', autofocus: true, onclick: () => box.close() }, cancel),
    ),
  );
  box.addEventListener('close', () => box.remove());
  document.body.append(box);
  box.showModal();
}
