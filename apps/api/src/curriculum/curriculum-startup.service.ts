import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectConfig, trustedImagesOf, type AntidoteConfig } from '@antidote/config';
import { formatProblem, readCurriculumIsolated } from '@antidote/curriculum';
import { EventSubjects } from '@antidote/contracts';
import { DatabaseLifecycle, DataManager } from '@antidote/data';
import { BusClient } from '@antidote/messaging';
import { ReadinessRegistry } from '@antidote/runtime';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * At start-up, imports `curriculumDir` when the database holds no curriculum yet (the original
 * imported on every start; `antictl curriculum import` re-imports). An invalid curriculum is reported
 * problem by problem and the api keeps serving — it never crashes over one. Readiness `curriculum`
 * holds once the import is over (done, not needed, or refused), so no one is served an empty catalogue.
 * An import is announced on the bus (`curriculumImported`): apps holding the curriculum load it again.
 */
@Injectable()
export class CurriculumStartup implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Curriculum');
  private readonly stopping = new AbortController();
  private settled = false;

  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(DatabaseLifecycle) private readonly database: DatabaseLifecycle,
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
    @Inject(BusClient) private readonly bus: BusClient,
    @InjectConfig() private readonly config: AntidoteConfig,
  ) {}

  onModuleInit(): void {
    this.readiness.register('curriculum', () => this.settled);
  }

  onApplicationBootstrap(): void {
    void this.importIfEmpty()
      .catch((error: unknown) => this.logger.error(`curriculum import failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => (this.settled = true));
  }

  onApplicationShutdown(): void {
    this.stopping.abort();
  }

  async importIfEmpty(): Promise<void> {
    while (!(await this.database.isReady())) await sleep(200, undefined, { signal: this.stopping.signal });
    if (await this.data.curriculum.getCurriculum()) return;
    // In a child process, bounded by `curriculumLimits`: the api keeps answering (`/healthz`) while it reads.
    const { curriculumDir, tier, instanceId, curriculumLimits: limits } = this.config;
    this.logger.log(`reading curriculum ${curriculumDir}`);
    // Privilege is the operator's: an image asking for `flavor: trusted` that pods.trustedImages does not allow is a problem.
    const result = await readCurriculumIsolated(curriculumDir, { tier, instanceId, limits, trustedImages: trustedImagesOf(this.config) }, this.stopping.signal);
    if (this.stopping.signal.aborted) return;
    if (!result.curriculum) {
      for (const problem of result.problems) this.logger.error(formatProblem(problem));
      this.logger.error(`curriculum ${this.config.curriculumDir} has ${result.problems.length} problems; nothing imported`);
      return;
    }
    await this.data.curriculum.replaceCurriculum(result.curriculum);
    this.logger.log(`imported curriculum ${this.config.curriculumDir}: ${result.curriculum.lessons.length} lessons, ${result.curriculum.images.length} images`);
    this.announce();
  }

  /** Every replica holding the curriculum in memory loads the new one (one that misses this finds it on its periodic look). */
  private announce(): void {
    try {
      this.bus.publish(EventSubjects.curriculumImported, { at: new Date().toISOString() });
    } catch (error) {
      this.logger.warn(`could not announce the import: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
