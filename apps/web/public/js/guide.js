import { marked } from '../vendor/marked.esm.js';
import DOMPurify from '../vendor/purify.es.mjs';
import { codeTools } from './code-tools.js';
import { h } from './dom.js';
import { lessonFileUrl } from './lesson-files.js';

/**
 * NRE Labs guides drive the lab from `onclick`: `runSnippetInTab('<tab>', this)` (the code block before the
 * button), `runSnippetInTab('<tab>', n)` (the guide's n-th code block), `runSnippetInTab('<tab>', '<id>')`
 * (an element's text) and `switchToTab('<tab>')`. The sanitiser drops every handler; the call is kept
 * first as data attributes, which the page then wires to its terminals.
 */
const GUIDE_CALL =
  /^\s*(runSnippetInTab|switchToTab)\(\s*(['"])([\w.-]{1,100})\2\s*(?:,\s*(this|\d{1,4}|(['"])([\w.-]{1,100})\5)\s*)?\)\s*;?\s*(?:return\s+false\s*;?\s*)?$/;

DOMPurify.addHook('beforeSanitizeAttributes', (node) => {
  const call = node.getAttribute?.('onclick');
  const parsed = call && GUIDE_CALL.exec(call);
  if (!parsed) return;
  node.setAttribute('data-guide-call', parsed[1] === 'switchToTab' ? 'switch' : 'run');
  node.setAttribute('data-guide-tab', parsed[3].toLowerCase());
  if (parsed[1] === 'runSnippetInTab') node.setAttribute('data-guide-snippet', parsed[6] !== undefined ? `#${parsed[6]}` : (parsed[4] ?? 'this'));
});

/** Markdown to a sanitised fragment: no scripts, handlers, styles, forms or frames reach the page. */
export function renderMarkdown(markdown) {
  const html = marked.parse(markdown, { async: false, gfm: true });
  return DOMPurify.sanitize(html, {
    FORBID_TAGS: ['style', 'form', 'input', 'textarea', 'select', 'iframe', 'frame', 'object', 'embed', 'link', 'meta', 'base'],
    FORBID_ATTR: ['style', 'srcset', 'formaction', 'autofocus'],
    RETURN_DOM_FRAGMENT: true,
  });
}

/** The code a guide control types: the block before it (`this`), the n-th `<pre>`, or an element by id. */
function snippetOf(button, body) {
  const spec = button.dataset.guideSnippet;
  if (/^\d+$/.test(spec)) return body.querySelectorAll('pre')[Number(spec)];
  if (spec.startsWith('#')) return body.querySelector(`[id="${CSS.escape(spec.slice(1))}"]`);
  // Markdown wraps an inline button in a paragraph: the snippet is the element before that paragraph.
  let anchor = button;
  while (anchor.parentElement !== body && anchor.parentElement?.tagName === 'P' && !anchor.previousElementSibling) anchor = anchor.parentElement;
  if (anchor.parentElement?.tagName === 'P' && anchor.parentElement.parentElement === body) anchor = anchor.parentElement;
  const before = anchor.previousElementSibling;
  if (!before) return undefined;
  return before.tagName === 'PRE' ? before : ([...before.querySelectorAll('pre')].at(-1) ?? before);
}

const blockText = (element) => (element.tagName === 'PRE' ? element.textContent : (element.innerText ?? element.textContent)).replace(/\n+$/, '');

/**
 * The stage's guide. Its controls and code blocks act on the terminals through `actions`:
 * `run(tabId | undefined, text, from)`, `switchTo(tabId)`, `tabs()` (the terminal tabs, for "Run in
 * terminal" on a block no control names). Images by relative path come from the lesson's folder; links
 * open a new tab. Jupyter guides are the lab's notebook server, in a frame.
 */
export function guideView(live, lesson, actions) {
  const stage = live.CurrentStage;
  const heading = h('h2', { class: 'sr-only', id: 'guide-heading' }, `Guide, stage ${stage}`);
  if (live.GuideType === 'jupyter') {
    const src = `${location.protocol}//${live.GuideDomain}/notebooks/stage${stage}/guide.ipynb`;
    return h(
      'article',
      { class: 'guide jupyter', 'aria-labelledby': 'guide-heading' },
      heading,
      h('iframe', { class: 'jupyter', src, title: 'Jupyter guide', sandbox: 'allow-scripts allow-same-origin allow-forms' }),
    );
  }
  const body = h('div', { class: 'guide-body' });
  body.append(renderMarkdown(live.GuideContents || ''));
  const named = new Set();
  for (const element of body.querySelectorAll('[data-guide-call]')) {
    const { guideCall: call, guideTab: tab } = element.dataset;
    const snippet = call === 'run' ? snippetOf(element, body) : undefined;
    if (snippet) named.add(snippet);
    const button = element.tagName === 'BUTTON' ? element : h('button', {}, ...element.childNodes);
    if (button !== element) element.replaceWith(button);
    button.type = 'button';
    button.classList.add('guide-control');
    button.dataset.tab = tab;
    button.append(h('span', { class: 'guide-target' }, tab));
    button.addEventListener('click', () => {
      if (call === 'switch') actions.switchTo(tab);
      else if (snippet) actions.run(tab, blockText(snippet), button);
      else actions.notice(`This button names no code to run in ${tab}.`);
    });
  }
  for (const pre of body.querySelectorAll('pre')) codeTools(pre, { runnable: !named.has(pre), actions, text: () => blockText(pre) });
  for (const media of body.querySelectorAll('img[src], video[src], source[src], video[poster]')) {
    for (const attribute of ['src', 'poster']) {
      const value = media.getAttribute(attribute);
      if (value === null) continue;
      const resolved = lessonFileUrl(lesson.Slug, value, `stage${stage}/`);
      if (resolved) media.setAttribute(attribute, resolved);
      else media.removeAttribute(attribute);
    }
    if (media.tagName === 'IMG') media.loading = 'lazy';
  }
  for (const link of body.querySelectorAll('a[href]')) {
    if (link.getAttribute('href').startsWith('#')) continue;
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
  }
  return h('article', { class: 'guide', 'aria-labelledby': 'guide-heading' }, heading, body);
}
