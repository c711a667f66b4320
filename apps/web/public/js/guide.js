import { marked } from '/vendor/marked.esm.js';
import DOMPurify from '/vendor/purify.es.mjs';
import { h } from './dom.js';

/** NRE Labs guides call `runSnippetInTab('<endpoint>', '<element id>')` from onclick; kept as data attributes (the sanitiser drops handlers). */
const RUN_IN_TAB = /onclick\s*=\s*"runSnippetInTab\(\s*'([A-Za-z0-9_-]+)'\s*,\s*'([A-Za-z0-9_-]+)'\s*\)"/g;

/** Markdown to sanitised HTML: scripts, handlers, forms and `javascript:` links never reach the page. */
export function renderMarkdown(markdown) {
  const html = marked.parse(markdown.replace(RUN_IN_TAB, 'data-run-tab="$1" data-run-snippet="$2"'), { async: false, gfm: true });
  return DOMPurify.sanitize(html, { FORBID_TAGS: ['style', 'form', 'input', 'iframe'], ADD_ATTR: ['data-run-tab', 'data-run-snippet'] });
}

/**
 * The stage's guide. Markdown is rendered here; every code block gets a button typing it into a terminal
 * (`runSnippet(endpoint | undefined, text)`), as do the guide's own runSnippetInTab buttons.
 * Jupyter guides are the lab's notebook server, in a frame.
 */
export function guideView(live, runSnippet) {
  const heading = h('h2', { id: 'guide-heading' }, `Guide — stage ${live.CurrentStage}`);
  if (live.GuideType === 'jupyter') {
    const src = `${location.protocol}//${live.GuideDomain}/notebooks/stage${live.CurrentStage}/guide.ipynb`;
    return h('section', { class: 'guide', 'aria-labelledby': 'guide-heading' }, heading, h('iframe', { class: 'jupyter', src, title: 'Jupyter guide', sandbox: 'allow-scripts allow-same-origin allow-forms' }));
  }
  const body = h('div', { class: 'guide-body' });
  body.innerHTML = renderMarkdown(live.GuideContents || '');
  for (const button of body.querySelectorAll('button[data-run-snippet]')) {
    const target = body.querySelector(`#${CSS.escape(button.dataset.runSnippet)}`);
    button.type = 'button';
    button.addEventListener('click', () => target && runSnippet(button.dataset.runTab, target.textContent));
  }
  for (const code of body.querySelectorAll('pre > code')) {
    const button = h('button', { type: 'button', class: 'run-snippet', onclick: () => runSnippet(undefined, code.textContent) }, 'Run in terminal');
    code.parentElement.after(button);
  }
  for (const link of body.querySelectorAll('a[href]')) {
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
  }
  return h('section', { class: 'guide', 'aria-labelledby': 'guide-heading' }, heading, body);
}
