/**
 * The browser's tabs on one lesson agree: what one does to the lab (a stage change, its end, a new lab)
 * reaches the others at once over a BroadcastChannel, so there is one stage and one lab. The lab's own
 * event stream says the same a moment later, and is what counts when the two differ.
 */
export function tabsSync(slug, onMessage) {
  if (typeof BroadcastChannel !== 'function') return { post: () => undefined, close: () => undefined };
  const channel = new BroadcastChannel('antidote.labs');
  channel.addEventListener('message', (event) => {
    if (event.data?.slug === slug) onMessage(event.data);
  });
  return {
    /** `{ kind: 'stage', id, stage }`, `{ kind: 'ended', id }` or `{ kind: 'started', id }`. */
    post: (message) => channel.postMessage({ ...message, slug }),
    close: () => channel.close(),
  };
}
