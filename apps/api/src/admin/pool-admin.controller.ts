import { Body, Controller, Delete, Get, Inject, Param, Put, UseGuards } from '@nestjs/common';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import type { PoolSummary } from '@antidote/contracts';
import { DataManager } from '@antidote/data';
import { notFound } from '../http/gateway.error.js';
import { AdminGuard } from '../http/http.guards.js';
import { validate } from '../http/validation.js';
import { PoolOverrides } from '../live-lessons/pool-overrides.js';
import { slugParamSchema } from '../live-lessons/live-lesson.dto.js';
import { poolResizeSchema } from './pool-resize.dto.js';
import { summarizePools } from './pool-summary.js';

/**
 * The warm pools, for operators (`antictl pool list|resize|reset`). A resize is stored in the database, so
 * every scheduler replica sizes the pool from it at its next pass (`scheduler.poolIntervalSeconds`), across
 * restarts, until it is reset to the config's.
 */
@Controller('exp/admin/pools')
@UseGuards(AdminGuard)
export class PoolAdminController {
  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @InjectConfig() private readonly config: AntidoteConfig,
    @Inject(PoolOverrides) private readonly overrides: PoolOverrides,
  ) {}

  /** Every pool (configured or set by an operator) and its unclaimed members by state. */
  @Get()
  async pools(): Promise<{ pools: PoolSummary[] }> {
    return { pools: await this.summaries() };
  }

  @Put(':slug')
  async resize(@Param() params: unknown, @Body() body: unknown): Promise<PoolSummary> {
    const { slug } = validate(slugParamSchema, params, 'path');
    const { size, maxAge } = validate(poolResizeSchema, body, 'body');
    if (!(await this.data.curriculum.findLesson(slug))) throw notFound(`Couldn't find lesson slug '${slug}': a pool needs a lesson of the curriculum`);
    await this.data.poolSizing.setOverride(slug, size, maxAge);
    await this.overrides.reload();
    return (await this.summaries()).find((pool) => pool.lesson === slug)!;
  }

  /** Back to the config's sizing (none when the config has no pool for the lesson: its members are retired). */
  @Delete(':slug')
  async reset(@Param() params: unknown): Promise<{ success: boolean }> {
    const { slug } = validate(slugParamSchema, params, 'path');
    if (!(await this.data.poolSizing.clearOverride(slug))) throw notFound(`No operator's size for the pool of '${slug}' to reset`);
    await this.overrides.reload();
    return { success: true };
  }

  private async summaries(): Promise<PoolSummary[]> {
    return summarizePools(this.config.warmPools, await this.data.poolSizing.overrides(), await this.data.pools.members());
  }
}
