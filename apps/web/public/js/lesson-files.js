/**
 * Where a lesson's media really is: an https URL (or a `data:` image) as written; a path relative to
 * `base` (a stage's folder for its guide, the lesson's folder for its diagram) is served by the api from
 * the lesson's folder in the curriculum. Anything else (http:, javascript:, a path leaving the lesson) is
 * undefined: not shown.
 */
export function lessonFileUrl(slug, value, base = '') {
  const trimmed = value.trim();
  if (/^https:\/\//i.test(trimmed)) return trimmed;
  if (/^data:image\/(png|gif|jpeg|webp);/i.test(trimmed)) return trimmed;
  if (/^[a-z][a-z0-9+.-]*:|^\/\/|^\//i.test(trimmed)) return undefined;
  const root = `/web/lessons/${encodeURIComponent(slug)}/files/`;
  const url = new URL(trimmed, new URL(`${root}${base}`, location.origin));
  return url.origin === location.origin && url.pathname.startsWith(root) && url.pathname.length > root.length ? url.pathname : undefined;
}
