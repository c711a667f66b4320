// Every path-based decision of the edge, on the canonical path (canonical-path.ts) the router sees too.

const OPS_PATHS = new Set(['/healthz', '/readyz', '/metrics']);
const STREAM_PATH = /^\/exp\/livelesson\/[^/]+\/events$/;

/** Liveness, readiness and metrics: no rate limit, no in-flight cap (probes must see a busy api as alive). */
export const isOpsPath = (path: string): boolean => OPS_PATHS.has(path);
/** A live lesson's event stream: its own per-client cap (`api.maxStreamsPerClient`) instead of the in-flight caps. */
export const isStreamPath = (path: string): boolean => STREAM_PATH.test(path);
/** Admin routes: a bearer token, never a browser page (no CORS). */
export const isAdminPath = (path: string): boolean => path === '/exp/admin' || path.startsWith('/exp/admin/');
/** The `/exp` API a front-end on another origin may call (CORS), admin routes excepted. */
export const isCorsPath = (path: string): boolean => (path === '/exp' || path.startsWith('/exp/')) && !isAdminPath(path);
