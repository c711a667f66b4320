import type { ReaperActionKind } from '@antidote/contracts';

/** One decision of a pass: what to do to which target, and why. */
export interface ReaperAction {
  action: ReaperActionKind;
  target: string;
  reason: string;
  details?: Record<string, unknown>;
}
