import { isAlias, isMap, visit, type Document } from 'yaml';
import type { ProblemList } from './problem.js';
import { LimitError, UnsafePathError, type SafeFs } from './safe-fs.js';
import { NestingError } from './yaml-nesting.js';
import { parseYaml } from './yaml-parse.js';

/**
 * A meta file as a plain object, or undefined after recording why not: unreadable, too big, unsafe,
 * nested too deep, not YAML (with line and column), an alias bomb, duplicate keys, or not a mapping.
 */
export async function readYamlObject(fs: SafeFs, path: string, problems: ProblemList): Promise<Record<string, unknown> | undefined> {
  const file = fs.relative(path);
  const { yamlDepth, yamlAliases } = fs.limits;
  let text: string;
  try {
    text = await fs.readText(path, fs.limits.metaFileBytes);
  } catch (error) {
    if (error instanceof LimitError) throw error;
    problems.add(file, 'file', error instanceof UnsafePathError ? `the file ${error.message}` : `cannot read the file: ${(error as Error).message}`);
    return undefined;
  }
  let parsed: ReturnType<typeof parseYaml>;
  try {
    parsed = parseYaml(text, yamlDepth);
  } catch (error) {
    if (!(error instanceof NestingError)) throw error;
    problems.add(file, 'yaml-limit', `nests deeper than ${yamlDepth} levels (line ${error.line}); the limit is ${yamlDepth}; not parsed`);
    return undefined;
  }
  const { document, issues, lines } = parsed;
  if (issues.length > 0) {
    for (const { message, offset } of issues) {
      const { line, col } = lines.linePos(offset);
      problems.add(file, 'yaml', `not valid YAML: ${message.split('\n')[0].replace(/:$/, '')} at line ${line}, column ${col}`);
    }
    return undefined;
  }
  if (!isMap(document.contents)) {
    problems.add(file, 'yaml', 'must be a YAML mapping of keys');
    return undefined;
  }
  const unresolved = unresolvedAlias(document);
  if (unresolved) {
    problems.add(file, 'yaml', `not valid YAML: the alias *${unresolved} has no anchor &${unresolved} before it`);
    return undefined;
  }
  try {
    return document.toJS({ maxAliasCount: yamlAliases }) as Record<string, unknown>;
  } catch {
    // With every alias resolved, what toJS refuses is the expansion count.
    problems.add(file, 'yaml-limit', `its aliases expand to more than ${yamlAliases} nodes (an alias bomb); the limit is ${yamlAliases}`);
    return undefined;
  }
}

/** The first alias whose anchor is not set before it, in document order. */
function unresolvedAlias(document: Document): string | undefined {
  const anchors = new Set<string>();
  let unresolved: string | undefined;
  visit(document, {
    Node(_, node) {
      if (isAlias(node)) {
        if (!anchors.has(node.source)) unresolved = node.source;
        return unresolved ? visit.BREAK : undefined;
      }
      if (node.anchor) anchors.add(node.anchor);
      return undefined;
    },
  });
  return unresolved;
}
