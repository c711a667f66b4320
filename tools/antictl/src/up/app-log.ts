import { readFileSync } from 'node:fs';

const TAIL_BYTES = 64 * 1024;

/** The line of a log that says why a process stopped: its start-up failure, its last error, or its last line. */
export function reasonFromLog(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').slice(-TAIL_BYTES);
  } catch {
    return undefined;
  }
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const messageOf = (line: string): string => {
    try {
      const entry = JSON.parse(line) as { msg?: string; level?: number; err?: { message?: string } };
      return [entry.msg, entry.err?.message].filter(Boolean).join(': ');
    } catch {
      return line.trim();
    }
  };
  const levelOf = (line: string): number => {
    try {
      return (JSON.parse(line) as { level?: number }).level ?? 0;
    } catch {
      return 0;
    }
  };
  const failure =
    lines.findLast((line) => /failed to start|Invalid configuration|EADDRINUSE/.test(line) && !line.startsWith('    at ')) ??
    lines.findLast((line) => levelOf(line) >= 50);
  return messageOf(failure ?? lines.at(-1) ?? '') || undefined;
}
