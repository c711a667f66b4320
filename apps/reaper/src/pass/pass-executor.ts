import { Logger } from '@nestjs/common';
import { RequestSubjects } from '@antidote/contracts';
import type { DataManager } from '@antidote/data';
import type { BusClient } from '@antidote/messaging';
import type { ReaperCluster } from '../cluster/reaper-cluster.port.js';
import type { ReaperAction } from './reaper-action.js';
import { cutoffFor } from './ttl-rules.js';

/**
 * Carries out a planned action. Expiry goes through the scheduler's delete request (so per-lesson
 * ordering holds: a delete cancels a running create there); the deletion is recorded in the database
 * first, so it happens even when no scheduler answers right now.
 */
export class PassExecutor {
  private readonly logger = new Logger('Reaper');

  constructor(
    private readonly data: DataManager,
    private readonly cluster: ReaperCluster,
    private readonly bus: Pick<BusClient, 'request'>,
    private readonly sessionTTLMinutes: number,
  ) {}

  /** False when the action turned out not to apply (e.g. a session got a live lesson meanwhile). */
  async execute(action: ReaperAction, now: Date): Promise<boolean> {
    switch (action.action) {
      case 'expire-live-lesson':
      case 'expire-failed-live-lesson':
        await this.data.liveLessons.requestDeletion(action.target);
        await this.bus
          .request(RequestSubjects.liveLessonDelete, { liveLessonId: action.target, reason: action.action }, { correlationId: action.target, timeoutMs: 5000 })
          .catch((error: unknown) =>
            this.logger.warn(
              `the delete of ${action.target} did not reach a scheduler (${error instanceof Error ? error.message : String(error)}); the recorded deletion is re-driven`,
            ),
          );
        return true;
      case 'delete-session':
        return this.data.liveSessions.deleteIfIdle(action.target, new Date(cutoffFor(now, this.sessionTTLMinutes * 60_000).getTime() + 1));
      case 'delete-orphan-namespace':
        await this.cluster.deleteNamespace(action.target);
        return true;
      case 'remove-orphan-record':
        await this.data.liveLessons.delete(action.target);
        return true;
      case 'remove-stuck-finalizers':
        await this.cluster.removeFinalizers(action.target, (action.details?.resources as never[] | undefined) ?? []);
        return true;
      case 'report-stuck-namespace':
      case 'skip-bad-record':
        return true;
    }
  }
}
