import { isMap, parseDocument } from 'yaml';
import type { ProblemList } from './problem.js';
import { LIMITS, UnsafePathError, type SafeFs } from './safe-fs.js';

/**
 * A meta file as a plain object, or undefined after recording why not: unreadable, too big, unsafe,
 * not YAML (with line and column), an alias bomb, duplicate keys, or not a mapping.
 */
export async function readYamlObject(fs: SafeFs, path: string, problems: ProblemList): Promise<Record<string, unknown> | undefined> {
  const file = fs.relative(path);
  let text: string;
  try {
    text = await fs.readText(path, LIMITS.metaFileBytes);
  } catch (error) {
    problems.add(file, 'file', error instanceof UnsafePathError ? `the file ${error.message}` : `cannot read the file: ${(error as Error).message}`);
    return undefined;
  }
  const document = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  const errors = [...document.errors];
  if (errors.length > 0) {
    for (const error of errors) problems.add(file, 'yaml', `not valid YAML: ${error.message.split('\n')[0].replace(/:$/, '')}`);
    return undefined;
  }
  if (!isMap(document.contents)) {
    problems.add(file, 'yaml', 'must be a YAML mapping of keys');
    return undefined;
  }
  try {
    return document.toJS({ maxAliasCount: 100 }) as Record<string, unknown>;
  } catch (error) {
    problems.add(file, 'yaml', `not valid YAML: ${(error as Error).message.split('\n')[0]}`);
    return undefined;
  }
}
