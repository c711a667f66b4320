/**
 * The memory settings every app process runs with, as the apps' image sets them (docker/Dockerfile):
 * V8's young generation kept to 2 MiB semi-spaces (it otherwise grows to 16 MiB ones during start-up and
 * keeps them, idle) and glibc's malloc held to one arena. Together ~30 MiB less resident memory per idle
 * app, with no measurable CPU cost in the burst bench (docs/performance.md, "Idle memory"). Given as
 * defaults in the environment: an operator's own NODE_OPTIONS come after them (the later flag wins) and
 * an operator's MALLOC_ARENA_MAX is kept.
 */
export const APP_NODE_OPTIONS = '--max-semi-space-size=2';
export const APP_MALLOC_ARENA_MAX = '1';

/** The environment variables an app process gets on top of antictl's own, given antictl's own. */
export function appRuntimeEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return {
    NODE_OPTIONS: [APP_NODE_OPTIONS, env.NODE_OPTIONS].filter(Boolean).join(' '),
    MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? APP_MALLOC_ARENA_MAX,
  };
}
