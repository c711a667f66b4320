import { Controller, Get, Header, HttpCode, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { instanceTokenOf } from '@antidote/config';
import { MetricsService } from './metrics.service.js';
import { ReadinessRegistry } from './readiness.js';

/** Liveness, readiness and metrics, on every service. */
@Controller()
export class OpsController {
  constructor(
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
    @Inject(MetricsService) private readonly metrics: MetricsService,
  ) {}

  @Get('healthz')
  @HttpCode(200)
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** With the instance token its supervisor gave it (`antictl up`), so the answer names this very process. */
  @Get('readyz')
  async readyz(@Res() response: Response): Promise<void> {
    const report = await this.readiness.report();
    const instance = instanceTokenOf();
    response.status(report.ready ? 200 : 503).json(instance ? { ...report, instance } : report);
  }

  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4')
  metricsText(): Promise<string> {
    return this.metrics.render();
  }
}
