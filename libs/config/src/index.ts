export { ConfigError, type ConfigIssue } from './config.error.js';
export { configPathFrom, DEFAULT_CONFIG_PATH, loadConfig, parseConfig, readConfigFile, resolveConfig } from './config.loader.js';
export type { ConfigSource } from './config.source.js';
export type { LoadConfigOptions, LoadedConfig } from './config.loader.js';
export { DNS_LABEL, LIVE_LESSON_ID_LENGTH, MAX_INSTANCE_ID_LENGTH, rawConfigSchema } from './config.schema.js';
export type { RawConfig } from './config.schema.js';
export type { AntidoteConfig, KubernetesConfig, PlatformImages } from './config.types.js';
export { CONFIG_PATH_ENV, envNameOf, INSTANCE_TOKEN_ENV, instanceTokenOf } from './env-overrides.js';
export { ANTIDOTE_CONFIG, ConfigModule, InjectConfig } from './config.module.js';
