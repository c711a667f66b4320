const CHANNEL = 'antidote.labs';
/** This page, so a page can tell its own messages (`here`) from other tabs'. */
const PAGE = Math.random().toString(36).slice(2);

/**
 * The browser's tabs on one lesson agree: what one does to the lab (a stage change, its end, a new lab)
 * reaches the others at once over a BroadcastChannel, so there is one stage and one lab. The lab's own
 * event stream says the same a moment later, and is what counts when the two differ. `onMessage` also
 * hears what another part of this page said (`here: true`), e.g. "my labs" ending the lab shown.
 */
export function tabsSync(slug, onMessage) {
  if (typeof BroadcastChannel !== 'function') return { post: () => undefined, close: () => undefined };
  const channel = new BroadcastChannel(CHANNEL);
  channel.addEventListener('message', (event) => {
    if (slug === '*' || event.data?.slug === slug) onMessage({ ...event.data, here: event.data?.from === PAGE });
  });
  return {
    /** `{ kind: 'stage', id, stage }`, `{ kind: 'ended', id }` or `{ kind: 'started', id }`. */
    post: (message) => channel.postMessage({ ...message, slug, from: PAGE }),
    close: () => channel.close(),
  };
}

/** Tells every tab (this page's lab view too) that this browser ended the lab `id` of the lesson `slug`. */
export function tellEnded(slug, id) {
  const sync = tabsSync(slug, () => undefined);
  sync.post({ kind: 'ended', id });
  sync.close();
}
