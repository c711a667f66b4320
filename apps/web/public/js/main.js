import { renderCatalogue } from './catalogue.js';
import { h, show } from './dom.js';
import { renderLab } from './lab.js';

/** Routes: `/` the catalogue, `/labs/?lessonSlug=S&lessonStage=N` a lab (the URL shape antidote-web used). */
async function route() {
  const params = new URLSearchParams(location.search);
  if (location.pathname.startsWith('/labs')) {
    const slug = params.get('lessonSlug');
    if (!slug) return show(h('h1', {}, 'No lesson named'), h('p', {}, h('a', { href: '/' }, 'Choose a lesson')));
    return renderLab(slug, Number.parseInt(params.get('lessonStage') ?? '0', 10));
  }
  return renderCatalogue();
}

route().catch((error) => show(h('h1', {}, 'Something went wrong'), h('p', { role: 'alert' }, error instanceof Error ? error.message : String(error)), h('p', {}, h('a', { href: '/' }, 'Back to the lessons'))));
