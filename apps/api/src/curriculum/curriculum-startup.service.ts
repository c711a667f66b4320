import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { readCurriculum } from '@antidote/curriculum';
import { DatabaseLifecycle, DataManager } from '@antidote/data';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * At start-up, imports `curriculumDir` when the database holds no curriculum yet (the original
 * imported on every start; `antictl curriculum import` re-imports). An invalid curriculum is reported
 * problem by problem and the api keeps serving — it never crashes over one.
 */
@Injectable()
export class CurriculumStartup implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Curriculum');
  private readonly stopping = new AbortController();

  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(DatabaseLifecycle) private readonly database: DatabaseLifecycle,
    @InjectConfig() private readonly config: AntidoteConfig,
  ) {}

  onApplicationBootstrap(): void {
    void this.importIfEmpty().catch((error: unknown) => this.logger.error(`curriculum import failed: ${error instanceof Error ? error.message : String(error)}`));
  }

  onApplicationShutdown(): void {
    this.stopping.abort();
  }

  async importIfEmpty(): Promise<void> {
    while (!(await this.database.isReady())) await sleep(200, undefined, { signal: this.stopping.signal });
    if (await this.data.curriculum.getCurriculum()) return;
    const result = await readCurriculum(this.config.curriculumDir, { tier: this.config.tier, instanceId: this.config.instanceId });
    if (!result.curriculum) {
      for (const problem of result.problems) this.logger.error(`${problem.file}${problem.field ? `: ${problem.field}` : ''}: ${problem.message}`);
      this.logger.error(`curriculum ${this.config.curriculumDir} has ${result.problems.length} problems; nothing imported`);
      return;
    }
    await this.data.curriculum.replaceCurriculum(result.curriculum);
    this.logger.log(`imported curriculum ${this.config.curriculumDir}: ${result.curriculum.lessons.length} lessons, ${result.curriculum.images.length} images`);
  }
}
