import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { ConfigError } from './config.error.js';

/** A configuration file read: its contents, and the line each key is written on. */
export interface ConfigSource {
  contents: Record<string, unknown>;
  /** Line of the key at `path`, or of the nearest enclosing key written in the file. */
  lineOf: (path: readonly (string | number)[]) => number | undefined;
}

/** Parses YAML text (aliases bounded, duplicate keys refused); a syntax error names its line. */
export function parseConfigSource(text: string, source: string): ConfigSource {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const [error] = doc.errors;
  if (error) throw ConfigError.ofFile(`not valid YAML: ${error.message.split('\n')[0]}`, source, lineCounter.linePos(error.pos[0]).line);
  let parsed: unknown;
  try {
    parsed = doc.toJS({ maxAliasCount: 50 });
  } catch (failure) {
    throw ConfigError.ofFile(`not valid YAML: ${(failure as Error).message.split('\n')[0]}`, source);
  }
  if (parsed !== null && parsed !== undefined && (typeof parsed !== 'object' || Array.isArray(parsed))) {
    throw ConfigError.ofFile('the top level must be a mapping of keys', source);
  }
  const lineAt = (offset: number | undefined): number | undefined => (offset === undefined ? undefined : lineCounter.linePos(offset).line);
  return {
    contents: (parsed ?? {}) as Record<string, unknown>,
    lineOf: (path) => {
      let node: unknown = doc.contents;
      let line: number | undefined;
      for (const segment of path) {
        if (isMap(node)) {
          const pair = node.items.find((item) => (item.key as { value?: unknown } | null)?.value === segment);
          if (!pair) break;
          line = lineAt((pair.key as Node).range?.[0]);
          node = pair.value;
        } else if (isSeq(node) && typeof segment === 'number' && node.items[segment]) {
          node = node.items[segment];
          line = lineAt((node as Node).range?.[0]) ?? line;
        } else break;
      }
      return line;
    },
  };
}
