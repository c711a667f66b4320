import { CST } from 'yaml';

/** A YAML document nests deeper than the limit; `line` is where it first does. */
export class NestingError extends Error {
  constructor(
    readonly depth: number,
    readonly line: number,
  ) {
    super(`nested deeper than the limit at line ${line}`);
  }
}

/**
 * Follows the nesting of a YAML token stream (block mappings and lists by indentation, `- - -` on one
 * line, flow `[` and `{`) and throws a NestingError at the first token past `max`. It sees each token
 * before the parser does, so the parser (whose cost grows with nesting) never meets a deep document.
 */
export class NestingGuard {
  private readonly indents: number[] = [];
  private line = 1;
  private flow = 0;
  private inline = 0;
  private indent = 0;
  private lineStart = true;
  private scalarNext = false;

  constructor(private readonly max: number) {}

  see(token: string): void {
    const type = this.scalarNext ? 'scalar-source' : CST.tokenType(token);
    this.scalarNext = type === 'scalar';
    if (type === 'newline') {
      [this.lineStart, this.inline, this.indent] = [true, 0, 0];
    } else if (this.lineStart && type === 'space') {
      this.indent = token.length;
    } else if (type !== 'comment' && type !== 'scalar') {
      this.structural(type);
    }
    const depth = this.indents.length + this.inline + this.flow;
    if (depth > this.max) throw new NestingError(depth, this.line);
    for (let i = token.indexOf('\n'); i !== -1; i = token.indexOf('\n', i + 1)) this.line++;
  }

  private structural(type: string | null): void {
    if (this.lineStart && this.flow === 0) {
      // The first token of a line: the enclosing levels are the open indentations below this one.
      while (this.indents.length > 0 && this.indents[this.indents.length - 1] >= this.indent) this.indents.pop();
      this.indents.push(this.indent);
    }
    this.lineStart = false;
    if (type === 'seq-item-ind' || type === 'explicit-key-ind') this.inline++;
    else if (type === 'flow-seq-start' || type === 'flow-map-start') this.flow++;
    else if (type === 'flow-seq-end' || type === 'flow-map-end') this.flow = Math.max(0, this.flow - 1);
  }
}
