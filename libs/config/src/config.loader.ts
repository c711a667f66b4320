import { existsSync, readFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import type { z } from 'zod';
import { ConfigError, type ConfigIssue } from './config.error.js';
import { rawConfigSchema, type RawConfig } from './config.schema.js';
import { parseConfigSource, type ConfigSource } from './config.source.js';
import { suggestKey } from './config.suggest.js';
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
  /** Unknown keys in the file: a warning (the apps, as the original did) or an error (`antictl up`). */
  unknownKeys?: 'warn' | 'error';
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

/** Reads and parses a configuration file (not yet validated), keeping the line of each key. */
export function readConfigFile(path: string): ConfigSource {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw ConfigError.ofFile(`cannot read the file: ${(error as Error).message}`, path);
  }
  return parseConfigSource(text, path);
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

type LineOf = ConfigSource['lineOf'];

function issueOf(issue: z.core.$ZodIssue, lineOf: LineOf | undefined): ConfigIssue {
  const path = issue.path.filter((segment): segment is string | number => typeof segment !== 'symbol');
  const line = lineOf?.(path);
  return { key: path.length > 0 ? path.join('.') : '(top level)', message: issue.message, ...(line ? { line } : {}) };
}

function unknownKeyIssue(key: string, lineOf: LineOf | undefined): ConfigIssue {
  const suggestion = suggestKey(rawConfigSchema, key);
  const line = lineOf?.(key.split('.'));
  return { key, message: `unknown configuration key${suggestion ? ` (did you mean "${suggestion}"?)` : ''}`, ...(line ? { line } : {}) };
}

const warningOf = (issue: ConfigIssue): string =>
  `unknown configuration key "${issue.key}" is ignored${issue.message.replace('unknown configuration key', '')}${issue.line ? ` (line ${issue.line})` : ''}`;

/** Merges the flat `k8s*` keys with HEAD's `backendConfigs.kubernetes` (HEAD form wins) and derives defaults. */
export function resolveConfig(raw: RawConfig, source?: string): AntidoteConfig {
  const { k8sInCluster, k8sOutOfClusterConfigPath, secretsNamespace, tlsCertName, pullCredName, backendConfigs, images, ...rest } = raw;
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
  options: Pick<LoadConfigOptions, 'env' | 'overrides' | 'unknownKeys'> & { source?: string; lineOf?: LineOf } = {},
): LoadedConfig {
  const raw = structuredClone(fileContents);
  const unknownKeys = stripUnknownKeys(rawConfigSchema, raw).map((key) => unknownKeyIssue(key, options.lineOf));
  const strict = options.unknownKeys === 'error';
  const warnings = strict ? [] : unknownKeys.map(warningOf);
  const env = options.env ?? {};
  const fromEnv = applyEnvOverrides(raw, leaves, env);
  warnings.push(
    ...fromEnv.unknown
      .filter((name) => !name.startsWith(TEST_ENV_PREFIX))
      .map((name) => `environment variable ${name} matches no configuration key and is ignored`),
  );
  if (options.overrides) deepMerge(raw, structuredClone(options.overrides));
  const result = rawConfigSchema.safeParse(raw);
  const problems: ConfigIssue[] = [
    ...(strict ? unknownKeys : []),
    ...fromEnv.problems.map((problem) => ({ key: '', message: problem })),
    ...(result.success ? [] : result.error.issues.map((issue) => issueOf(issue, options.lineOf))),
  ];
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
  const source = path ? readConfigFile(path) : undefined;
  return parseConfig(source?.contents ?? {}, { env, overrides: options.overrides, unknownKeys: options.unknownKeys, source: path, lineOf: source?.lineOf });
}
