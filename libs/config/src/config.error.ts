/** Invalid configuration: raised at boot, naming every key at fault and the problem with it. */
export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID';

  constructor(
    readonly problems: readonly string[],
    readonly source?: string,
  ) {
    super(`Invalid configuration${source ? ` in ${source}` : ''}:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}
