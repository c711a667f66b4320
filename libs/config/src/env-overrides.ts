import type { ConfigLeaf, LeafKind } from './schema-walk.js';

export const ENV_PREFIX = 'ANTIDOTE_';
/** Names the configuration file; not a configuration key itself. */
export const CONFIG_PATH_ENV = 'ANTIDOTE_CONFIG';
/**
 * A random token a supervisor (`antictl up`) gives the process it starts; `/readyz` repeats it, so the
 * supervisor knows the answer comes from its own process and not another one on the port.
 */
export const INSTANCE_TOKEN_ENV = 'ANTIDOTE_INSTANCE_TOKEN';

export const instanceTokenOf = (env: Readonly<Record<string, string | undefined>> = process.env): string | undefined => env[INSTANCE_TOKEN_ENV] || undefined;

const snake = (segment: string): string => segment.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();

/** `backendConfigs.kubernetes.inCluster` → `ANTIDOTE_BACKEND_CONFIGS_KUBERNETES_IN_CLUSTER`. */
export const envNameOf = (path: readonly string[]): string => ENV_PREFIX + path.map(snake).join('_');

function parseValue(kind: LeafKind, text: string, name: string, problems: string[]): unknown {
  switch (kind) {
    case 'string':
      return text;
    case 'number': {
      const value = Number(text);
      if (text.trim() === '' || Number.isNaN(value)) problems.push(`${name}: "${text}" is not a number`);
      return value;
    }
    case 'boolean': {
      const lowered = text.trim().toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(lowered)) return true;
      if (['false', '0', 'no', 'off'].includes(lowered)) return false;
      problems.push(`${name}: "${text}" is not a boolean (true/false)`);
      return text;
    }
    case 'list':
      return text
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item.length > 0);
    case 'map':
      try {
        return JSON.parse(text) as unknown;
      } catch {
        problems.push(`${name}: expected a JSON object`);
        return text;
      }
  }
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const segment of path.slice(0, -1)) {
    const next = node[segment];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[segment] = {};
    node = node[segment] as Record<string, unknown>;
  }
  node[path[path.length - 1]] = value;
}

/**
 * Applies `ANTIDOTE_*` variables onto the raw configuration (in place). Returns the names of variables
 * that look like ours but match no key, and any value that could not be parsed.
 */
export function applyEnvOverrides(
  raw: Record<string, unknown>,
  leaves: readonly ConfigLeaf[],
  env: Readonly<Record<string, string | undefined>>,
): { unknown: string[]; problems: string[] } {
  const byName = new Map(leaves.map((leaf) => [envNameOf(leaf.path), leaf]));
  const unknown: string[] = [];
  const problems: string[] = [];
  for (const [name, text] of Object.entries(env)) {
    if (!name.startsWith(ENV_PREFIX) || name === CONFIG_PATH_ENV || name === INSTANCE_TOKEN_ENV || text === undefined) continue;
    const leaf = byName.get(name);
    if (!leaf) {
      unknown.push(name);
      continue;
    }
    setPath(raw, leaf.path, parseValue(leaf.kind, text, name, problems));
  }
  return { unknown, problems };
}
