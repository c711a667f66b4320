import { h } from './dom.js';

/** Copies text with the Clipboard API, or through a selection where that is not allowed (http: origins). */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h('textarea', { class: 'sr-only', readonly: true, 'aria-hidden': 'true' });
    area.value = text;
    document.body.append(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    return copied;
  }
}

/** "Which terminal?": one button per terminal tab, under the block; Escape or a choice closes it. */
function chooser(opener, container, tabs, choose) {
  container.parentElement.querySelector('.chooser')?.remove();
  const close = () => {
    menu.remove();
    opener.focus();
  };
  const menu = h(
    'div',
    { class: 'chooser', role: 'group', 'aria-label': 'Run in which terminal?', onkeydown: (event) => event.key === 'Escape' && close() },
    h('span', { class: 'chooser-label' }, 'Run in:'),
    tabs.map((tab) => h('button', { type: 'button', 'data-tab': tab.id, onclick: () => (menu.remove(), choose(tab.id)) }, tab.label)),
    h('button', { type: 'button', class: 'quiet', onclick: close }, 'Cancel'),
  );
  container.after(menu);
  menu.querySelector('button').focus();
}

/**
 * A code block's tools: "Copy", and "Run in terminal" when no guide control names it — which types it
 * into the only terminal, or asks which one when the lab has several.
 */
export function codeTools(pre, { runnable, actions, text }) {
  const status = h('span', { class: 'copied', role: 'status' });
  const copy = h(
    'button',
    {
      type: 'button',
      class: 'code-copy',
      onclick: async () => (status.textContent = (await copyText(text())) ? 'Copied' : 'Copy failed: select the text instead'),
    },
    'Copy',
  );
  const tools = h('div', { class: 'code-tools' }, copy, status);
  if (runnable) {
    const run = h(
      'button',
      {
        type: 'button',
        class: 'code-run',
        onclick: () => {
          const tabs = actions.tabs();
          if (tabs.length === 1) actions.run(tabs[0].id, text(), run);
          else if (tabs.length > 1) chooser(run, tools, tabs, (id) => actions.run(id, text(), run));
          else actions.notice('The terminals open once the lab is ready.');
        },
      },
      'Run in terminal',
    );
    tools.prepend(run);
  }
  const block = h('div', { class: 'code-block' });
  pre.replaceWith(block);
  pre.tabIndex = 0; // a long line scrolls sideways: keyboard users reach it too
  block.append(pre, tools);
}
