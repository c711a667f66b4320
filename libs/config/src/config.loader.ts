import { existsSync, readFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { ConfigError } from './config.error.js';
import { rawConfigSchema, type RawConfig } from './config.schema.js';
import type { AntidoteConfig } from './config.types.js';
import { applyEnvOverrides, CONFIG_PATH_ENV, ENV_PREFIX } from './env-overrides.js';
import { leavesOf, stripUnknownKeys } from './schema-walk.js';

export const DEFAULT_CONFIG_PATH = '/etc/antidote/antidote-config.yml';
/** Variables for test harnesses only; never configuration. */
const TEST_ENV_PREFIX = `${ENV_PREFIX}TEST_`;

export interface LoadConfigOptions {
  /** Command-line arguments; `--config <file>` / `--config=<file>` names the file. */
  argv?: readonly string[];
  env?: Readonly<Record<string, string | undefined>>;
  /** Explicit file (wins over argv and env). */
  path?: string;
  /** Values applied over file and environment (tests, `antictl up`). */
  overrides?: Record<string, unknown>;
}

export interface LoadedConfig {
  config: AntidoteConfig;
  /** Unknown keys and variables: reported, not fatal. */
  warnings: string[];
}

const leaves = leavesOf(rawConfigSchema);

export function configPathFrom(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--config') return argv[i + 1];
    if (arg.startsWith('--config=')) return arg.slice('--config='.length);
  }
  return env[CONFIG_PATH_ENV] || undefined;
}

function readYaml(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError([`cannot read the file: ${(error as Error).message}`], path);
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(text, { maxAliasCount: 50, uniqueKeys: true });
  } catch (error) {
    throw new ConfigError([`not valid YAML: ${(error as Error).message.split('\n')[0]}`], path);
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError(['the top level must be a mapping of keys'], path);
  return parsed as Record<string, unknown>;
}

function deepMerge(target: Record<string, unknown>, source: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (value && typeof value === 'object' && !Array.isArray(value) && existing && typeof existing === 'object' && !Array.isArray(existing)) {
      deepMerge(existing as Record<string, unknown>, value as Record<string, unknown>);
    } else {
      target[key] = value;
    }
  }
  return target;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const key = issue.path.length > 0 ? issue.path.join('.') : '(top level)';
  return `${key}: ${issue.message}`;
}

/** Merges the flat `k8s*` keys with HEAD's `backendConfigs.kubernetes` (HEAD form wins) and derives defaults. */
export function resolveConfig(raw: RawConfig, source?: string): AntidoteConfig {
  const {
    k8sInCluster,
    k8sOutOfClusterConfigPath,
    secretsNamespace,
    tlsCertName,
    pullCredName,
    backendConfigs,
    images,
    ...rest
  } = raw;
  const head = backendConfigs?.kubernetes ?? {};
  return {
    ...rest,
    kubernetes: {
      inCluster: head.inCluster ?? k8sInCluster ?? true,
      kubeconfigPath: head.outOfClusterConfigPath ?? k8sOutOfClusterConfigPath ?? '',
      server: head.server,
      token: head.token,
      caFile: head.caFile,
      insecureSkipTlsVerify: head.insecureSkipTlsVerify ?? false,
      secretsNamespace: head.secretsNamespace ?? secretsNamespace ?? 'prod',
      tlsCertName: head.tlsCertName ?? tlsCertName ?? 'tls-certificate',
      pullCredName: head.pullCredName ?? pullCredName ?? '',
    },
    images: {
      configurator: images.configurator ?? `${raw.imageOrg}/configurator:${images.imageVersion}`,
      jupyter: images.jupyter ?? `${raw.imageOrg}/jupyter:${images.imageVersion}`,
      copier: images.copier,
      imageVersion: images.imageVersion,
    },
    ...(source ? { source } : {}),
  };
}

/** Validates an already-read configuration object (file contents, then environment, then overrides). */
export function parseConfig(
  fileContents: Record<string, unknown>,
  options: { env?: Readonly<Record<string, string | undefined>>; overrides?: Record<string, unknown>; source?: string } = {},
): LoadedConfig {
  const raw = structuredClone(fileContents);
  const warnings = stripUnknownKeys(rawConfigSchema, raw).map((key) => `unknown configuration key "${key}" is ignored`);
  const env = options.env ?? {};
  const fromEnv = applyEnvOverrides(raw, leaves, env);
  warnings.push(
    ...fromEnv.unknown
      .filter((name) => !name.startsWith(TEST_ENV_PREFIX))
      .map((name) => `environment variable ${name} matches no configuration key and is ignored`),
  );
  if (options.overrides) deepMerge(raw, structuredClone(options.overrides));
  const result = rawConfigSchema.safeParse(raw);
  const problems = [...fromEnv.problems, ...(result.success ? [] : result.error.issues.map(describeIssue))];
  if (problems.length > 0 || !result.success) throw new ConfigError(problems, options.source);
  return { config: resolveConfig(result.data, options.source), warnings };
}

/**
 * Loads the configuration: the YAML file from `path`, `--config` or `ANTIDOTE_CONFIG` (else the default
 * path when it exists), then `ANTIDOTE_*` overrides. Throws `ConfigError` naming each bad key.
 */
export function loadConfig(options: LoadConfigOptions = {}): LoadedConfig {
  const env = options.env ?? process.env;
  const explicit = options.path ?? configPathFrom(options.argv ?? process.argv.slice(2), env);
  const path = explicit ? resolvePath(explicit) : existsSync(DEFAULT_CONFIG_PATH) ? DEFAULT_CONFIG_PATH : undefined;
  const contents = path ? readYaml(path) : {};
  return parseConfig(contents, { env, overrides: options.overrides, source: path });
}
