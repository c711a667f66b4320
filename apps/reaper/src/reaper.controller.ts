import { Controller, Inject } from '@nestjs/common';
import { QueueGroups, RequestSubjects, type ReaperDryRunReply } from '@antidote/contracts';
import { OnRequest, RequestPayload } from '@antidote/messaging';
import type { LeaderElector } from './leader/leader-elector.js';
import { ReaperPass } from './pass/reaper-pass.service.js';
import { LEADER_ELECTOR } from './reaper-loop.service.js';

@Controller()
export class ReaperController {
  constructor(
    @Inject(ReaperPass) private readonly pass: ReaperPass,
    @Inject(LEADER_ELECTOR) private readonly elector: LeaderElector,
  ) {}

  /** What the next pass would do, changing nothing (`antictl reap --dry-run`); any replica can answer. */
  @OnRequest(RequestSubjects.reaperDryRun, QueueGroups.reaper)
  dryRun(@RequestPayload(RequestSubjects.reaperDryRun) _request: Record<string, never>): Promise<ReaperDryRunReply> {
    return this.pass.run(this.elector.identity, true);
  }
}
