import { api, untilReachable } from './api.js';
import { storedLab } from './session.js';
import { h, show } from './dom.js';

/** A lesson's lab: this browser's running lab of it resumes at its stage, or a new one starts at the first. */
const labLink = (slug) => `/labs/?lessonSlug=${encodeURIComponent(slug)}`;

/** The catalogue: collections and their lessons, searchable by text and filterable by category and tier. */
export async function renderCatalogue() {
  document.title = 'Lessons — Antidote labs';
  show(h('p', { role: 'status' }, 'Loading the catalogue…'));
  const waiting = (ms) => show(h('p', { role: 'status' }, `Cannot reach the platform; trying again in ${Math.round(ms / 1000)} s…`));
  const [lessons, collections] = await untilReachable(() => Promise.all([api.lessons(), api.collections()]), waiting);
  const byCollection = new Map(collections.map((c) => [c.Slug, c]));
  const categories = [...new Set(lessons.map((l) => l.Category).filter(Boolean))].sort();
  const tiers = [...new Set(lessons.map((l) => l.Tier).filter(Boolean))].sort();

  const search = h('input', { id: 'search', type: 'search', placeholder: 'name, tag, description…', autocomplete: 'off' });
  const category = h(
    'select',
    { id: 'category' },
    h('option', { value: '' }, 'All categories'),
    categories.map((c) => h('option', { value: c }, c)),
  );
  const tier = h(
    'select',
    { id: 'tier' },
    h('option', { value: '' }, 'All tiers'),
    tiers.map((t) => h('option', { value: t }, t)),
  );
  const count = h('p', { class: 'count', role: 'status', 'aria-live': 'polite' });
  const list = h('div', { class: 'collections' });

  const render = () => {
    const words = search.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    const matches = lessons.filter((lesson) => {
      if (category.value && lesson.Category !== category.value) return false;
      if (tier.value && lesson.Tier !== tier.value) return false;
      const text = [lesson.Name, lesson.Slug, lesson.Description, lesson.ShortDescription, ...(lesson.Tags ?? [])].join(' ').toLowerCase();
      return words.every((word) => text.includes(word));
    });
    count.textContent = `${matches.length} of ${lessons.length} lessons`;
    const groups = new Map();
    for (const lesson of matches) {
      const key = lesson.Collection || '';
      groups.set(key, [...(groups.get(key) ?? []), lesson]);
    }
    list.replaceChildren(
      ...[...groups.entries()]
        .sort(([a], [b]) => (a === '') - (b === '') || a.localeCompare(b))
        .map(([slug, group]) => {
          const collection = byCollection.get(slug);
          return h(
            'section',
            { class: 'collection', 'aria-labelledby': `collection-${slug || 'none'}` },
            h('h2', { id: `collection-${slug || 'none'}` }, collection?.Title || (slug ? slug : 'Other lessons')),
            collection?.BriefDescription ? h('p', { class: 'muted' }, collection.BriefDescription) : null,
            h('ul', { class: 'lessons' }, group.map(lessonCard)),
          );
        }),
    );
  };
  for (const control of [search, category, tier]) control.addEventListener('input', render);

  show(
    h('h1', {}, 'Lessons'),
    h(
      'form',
      { class: 'filters', role: 'search', onsubmit: (event) => event.preventDefault() },
      h('label', { for: 'search' }, 'Search'),
      search,
      h('label', { for: 'category' }, 'Category'),
      category,
      h('label', { for: 'tier' }, 'Tier'),
      tier,
    ),
    count,
    list,
  );
  render();
}

function lessonCard(lesson) {
  return h(
    'li',
    { class: 'lesson', 'data-slug': lesson.Slug },
    h('h3', {}, h('a', { href: labLink(lesson.Slug) }, lesson.Name || lesson.Slug)),
    storedLab.get(lesson.Slug) ? h('p', { class: 'running' }, 'Your lab of this lesson may still be running: open it to continue.') : null,
    h('p', {}, lesson.Description || lesson.ShortDescription || ''),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Tier'),
      h('dd', {}, lesson.Tier || '—'),
      h('dt', {}, 'Category'),
      h('dd', {}, lesson.Category || '—'),
      h('dt', {}, 'Stages'),
      h('dd', {}, String(lesson.Stages?.length ?? 0)),
      lesson.Prereqs?.length
        ? [
            h('dt', {}, 'Prerequisites'),
            h(
              'dd',
              {},
              lesson.Prereqs.map((slug, i) => [i ? ', ' : '', h('a', { href: labLink(slug) }, slug)]),
            ),
          ]
        : null,
    ),
  );
}
