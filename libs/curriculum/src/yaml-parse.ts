import { Composer, isScalar, Lexer, LineCounter, Parser, visit, type Document } from 'yaml';
import { NestingGuard } from './yaml-nesting.js';

/** A YAML problem at a place in the text. */
export interface YamlIssue {
  message: string;
  offset: number;
}

/**
 * Parses one YAML document with its nesting checked token by token before the parser sees it (see
 * NestingGuard, which throws NestingError). Duplicate keys are found here in one pass over each
 * mapping (yaml's own `uniqueKeys` compares every pair of keys: a quadratic cost on a large mapping).
 */
export function parseYaml(text: string, maxDepth: number): { document: Document; issues: YamlIssue[]; lines: LineCounter } {
  const lines = new LineCounter();
  const parser = new Parser(lines.addNewLine);
  const guard = new NestingGuard(maxDepth);
  function* tokens() {
    lines.addNewLine(0);
    for (const token of new Lexer().lex(text)) {
      guard.see(token);
      yield* parser.next(token);
    }
    yield* parser.end();
  }
  const composer = new Composer({ uniqueKeys: false });
  const documents = [...composer.compose(tokens(), true, text.length)];
  const [document] = documents as Document[];
  const issues: YamlIssue[] = document.errors.map((error) => ({ message: error.message, offset: error.pos[0] }));
  if (documents.length > 1) issues.push({ message: 'Source contains multiple documents', offset: documents[1].range[0] });
  if (issues.length === 0) issues.push(...duplicateKeys(document));
  return { document, issues, lines };
}

function duplicateKeys(document: Document): YamlIssue[] {
  const issues: YamlIssue[] = [];
  visit(document, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const { key } of map.items) {
        const value = isScalar(key) ? key.value : key;
        if (seen.has(value)) issues.push({ message: 'Map keys must be unique', offset: isScalar(key) ? (key.range?.[0] ?? 0) : 0 });
        seen.add(value);
      }
    },
  });
  return issues;
}
