/** One thing wrong with the configuration: the key at fault (dotted), what is wrong, and where in the file. */
export interface ConfigIssue {
  key: string;
  message: string;
  /** 1-based line in the file, when the key (or the nearest key above it) is written there. */
  line?: number;
}

const describe = (issue: ConfigIssue): string => `${issue.key ? `${issue.key}: ` : ''}${issue.message}${issue.line ? ` (line ${issue.line})` : ''}`;

/** Invalid configuration: raised at boot, naming every key at fault, the problem with it and its line. */
export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID';
  /** `key: message (line N)`, one per issue. */
  readonly problems: readonly string[];

  constructor(
    readonly issues: readonly ConfigIssue[],
    readonly source?: string,
  ) {
    const problems = issues.map(describe);
    super(`Invalid configuration${source ? ` in ${source}` : ''}:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }

  /** A problem with the file as a whole (unreadable, not YAML…), at no key. */
  static ofFile(message: string, source: string, line?: number): ConfigError {
    return new ConfigError([{ key: '', message, ...(line ? { line } : {}) }], source);
  }
}
