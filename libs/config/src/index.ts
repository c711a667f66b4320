export { ConfigError, type ConfigIssue } from './config.error.js';
export { configPathFrom, DEFAULT_CONFIG_PATH, loadConfig, parseConfig, readConfigFile, resolveConfig } from './config.loader.js';
export type { ConfigSource } from './config.source.js';
export type { LoadConfigOptions, LoadedConfig } from './config.loader.js';
export { MAX_INSTANCE_ID_LENGTH, rawConfigSchema } from './config.schema.js';
export type { RawConfig } from './config.schema.js';
export { curriculumLimitsSchema, DEFAULT_CURRICULUM_LIMITS } from './curriculum-limits.schema.js';
export type { CurriculumLimits } from './curriculum-limits.schema.js';
export type { AntidoteConfig, KubernetesConfig, PlatformImages } from './config.types.js';
export { isTrustedImage, trustedImagesOf, type TrustedImages } from './trusted-images.js';
export { METADATA_SERVICES } from './metadata-addresses.js';
export { CONFIG_PATH_ENV, envNameOf, INSTANCE_TOKEN_ENV, instanceTokenOf } from './env-overrides.js';
export { ANTIDOTE_CONFIG, ConfigModule, InjectConfig } from './config.module.js';
export {
  DEFAULT_POOL_MAX_AGE,
  isAdaptivePool,
  poolBudgetOf,
  warmPoolSchema,
  warmPoolsSchema,
  type AdaptiveWarmPoolConfig,
  type StaticWarmPoolConfig,
  type WarmPoolConfig,
} from './warm-pools.schema.js';
