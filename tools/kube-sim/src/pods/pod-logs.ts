import type { KubeObject } from '../api/object.js';
import { now } from './pod-lifecycle.js';

/** What the simulated containers printed, per pod uid; each line names its container (`[name] …`). */
export class PodLogs {
  private readonly lines = new Map<string, string[]>();

  say(pod: KubeObject, line: string): void {
    const key = pod.metadata.uid!;
    this.lines.set(key, [...(this.lines.get(key) ?? []), `${now()} ${line}`]);
  }

  /** The log of one container (all of them when absent), the last `tailLines` only when > 0. */
  read(uid: string, container?: string | null, tailLines = 0): string {
    let lines = (this.lines.get(uid) ?? []).filter((line) => !container || line.includes(`[${container}]`));
    if (tailLines > 0) lines = lines.slice(-tailLines);
    return lines.length > 0 ? `${lines.join('\n')}\n` : '';
  }

  forget(uid: string): void {
    this.lines.delete(uid);
  }
}
