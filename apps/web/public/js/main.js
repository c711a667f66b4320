import { h, show } from './dom.js';
import { myLabs } from './my-labs.js';

/**
 * Routes: `/` the catalogue, `/labs/?lessonSlug=S[&lessonStage=N]` a lab (the URL shape antidote-web used).
 * The lab page's modules (xterm.js, the markdown renderer) load only on the lab page.
 */
async function route() {
  const params = new URLSearchParams(location.search);
  if (location.pathname.startsWith('/labs')) {
    const slug = params.get('lessonSlug');
    if (!slug) return show(h('h1', {}, 'No lesson named'), h('p', {}, h('a', { href: '/' }, 'Choose a lesson')));
    const stage = params.get('lessonStage');
    document.body.classList.add('lab-page');
    const { renderLab } = await import('./lab.js');
    return renderLab(slug, stage === null ? undefined : Number.parseInt(stage, 10));
  }
  const { renderCatalogue } = await import('./catalogue.js');
  return renderCatalogue();
}

myLabs.mount(document.querySelector('header.top'));
route().catch((error) =>
  show(
    h('h1', {}, 'Something went wrong'),
    h('p', { role: 'alert' }, error instanceof Error ? error.message : String(error)),
    h('p', {}, h('a', { href: '/' }, 'Back to the lessons')),
  ),
);
