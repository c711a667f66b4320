import type { BootProfile } from './endpoints/boot-profile.js';

/** What can go wrong on purpose. Every field can be changed at run time (admin API or in process). */
export interface ApiErrorRule {
  /** Verb (get, list, watch, create, update, patch, delete) or undefined for all. */
  verb?: string;
  /** Resource plural (pods, namespaces…) or undefined for all. */
  resource?: string;
  code: 500 | 503 | 429;
  /** Probability 0..1 per matching call (with `count`: the next `count` matching calls fail). */
  rate?: number;
  count?: number;
  /** Retry-After seconds for 429. */
  retryAfterSeconds?: number;
}

export interface Faults {
  /** Pods whose image matches one of these (substring or `*` glob) never pull: ErrImagePull → ImagePullBackOff. */
  imagePullFailure: string[];
  /** Pods whose image matches crash: CrashLoopBackOff. */
  crash: string[];
  /** Pods whose image matches fail their init containers. */
  initFailure: string[];
  /**
   * Pods and services whose name (or `podName` label) matches never answer: nothing listens on their
   * address, so connections are refused. Applies at once to running objects when changed.
   */
  unreachable: string[];
  /**
   * Pods and services (name or `podName` label) matching are still booting: their ports answer, but their
   * SSH shell answers every command with a "still booting" line (exit 1), HTTP answers 503 and the TCP
   * banner says `booting`. Applies at once when changed (remove the pattern: booted).
   */
  booting: string[];
  /** Every endpoint boots this long after its pod's ports open (as `booting` meanwhile); 0: ready at once. */
  bootDelayMs: number;
  /**
   * Boot profiles by image pattern (substring or `*` glob; the first match wins, over `bootDelayMs`): how long
   * a pod of the image takes, once Running, until its port, its login and its CLI answer (see
   * endpoints/boot-profile.ts). Applies to pods started after the change.
   */
  bootProfiles: Record<string, BootProfile>;
  /** Jobs whose name matches `pattern` have their first `times` pods fail. */
  jobFailures: { pattern: string; times: number }[];
  /**
   * Time to pull an image onto a node, paid by the first pod of that image on that node only (later pods
   * find it in the node's image cache); meanwhile the pod waits in ContainerCreating (PodInitializing for
   * init containers). Default for every image.
   */
  imagePullDelayMs: number;
  /** Pull time per image pattern (substring or `*` glob; the first match wins), overriding `imagePullDelayMs`. */
  imagePullDelays: Record<string, number>;
  podStartDelayMs: number;
  jobRunDelayMs: number;
  namespaceDeleteDelayMs: number;
  /** How long after a namespace its `default` ServiceAccount appears (pods are refused 403 until then). */
  serviceAccountDelayMs: number;
  /** Namespaces matching stay Terminating until their `finalize` subresource clears spec.finalizers. */
  stuckNamespaces: string[];
  /** Added latency per call (ms); by verb or resource (`verb:resource`, `verb`, `resource`, `*`). */
  latencyMs: Record<string, number>;
  errors: ApiErrorRule[];
  /** While set (epoch ms), every API call fails with 503 and new watch connections are refused. */
  outageUntil: number;
}

export const defaultFaults = (): Faults => ({
  imagePullFailure: [],
  crash: [],
  initFailure: [],
  unreachable: [],
  booting: [],
  bootDelayMs: 0,
  bootProfiles: {},
  jobFailures: [],
  imagePullDelayMs: 0,
  imagePullDelays: {},
  podStartDelayMs: 0,
  jobRunDelayMs: 0,
  namespaceDeleteDelayMs: 0,
  serviceAccountDelayMs: 20,
  stuckNamespaces: [],
  latencyMs: {},
  errors: [],
  outageUntil: 0,
});

/** `*` matches any run of characters; without `*`, a substring match. */
export function matchesPattern(pattern: string, value: string): boolean {
  if (!pattern.includes('*')) return value.includes(pattern);
  const regex = new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return regex.test(value);
}

export const matchesAny = (patterns: readonly string[], value: string): boolean => patterns.some((pattern) => matchesPattern(pattern, value));

/** Deterministic pseudo-random numbers for error rates (a seed makes a run repeatable). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x100000000;
  };
}

export function latencyFor(faults: Faults, verb: string, resource: string): number {
  return faults.latencyMs[`${verb}:${resource}`] ?? faults.latencyMs[verb] ?? faults.latencyMs[resource] ?? faults.latencyMs['*'] ?? 0;
}

/** The error rule that fires for this call, if any (consuming one of its `count`). */
export function injectedError(faults: Faults, verb: string, resource: string, random: () => number): ApiErrorRule | undefined {
  for (const rule of faults.errors) {
    if (rule.verb && rule.verb !== verb) continue;
    if (rule.resource && rule.resource !== resource) continue;
    if (rule.count !== undefined) {
      if (rule.count <= 0) continue;
      rule.count--;
      return rule;
    }
    if (random() < (rule.rate ?? 1)) return rule;
  }
  return undefined;
}
