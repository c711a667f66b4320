import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DataManager } from '@antidote/data';

/** How often each replica reads the operators' pool sizes again (another replica's change is seen within this). */
export const POOL_OVERRIDES_REFRESH_MS = 5_000;
/** Injection token: another period for that (tests). */
export const POOL_OVERRIDES_REFRESH_PERIOD = Symbol('POOL_OVERRIDES_REFRESH_PERIOD');

/**
 * The lessons an operator set a pool size for (`antictl pool resize`), held in memory: read once and then
 * every POOL_OVERRIDES_REFRESH_MS, not on every live lesson request. A replica sees its own change at once
 * (the admin route reloads after writing), another replica's within the period — well within the
 * scheduler's own delay, which sizes the pool at its next pass.
 */
@Injectable()
export class PoolOverrides implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Pools');
  private held?: Promise<ReadonlySet<string>>;
  private loads = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @Optional() @Inject(POOL_OVERRIDES_REFRESH_PERIOD) private readonly refreshMs: number = POOL_OVERRIDES_REFRESH_MS,
  ) {}

  /** Whether an operator set a size for the lesson's pool (even 0). */
  async has(lessonSlug: string): Promise<boolean> {
    return (await (this.held ?? this.reload())).has(lessonSlug);
  }

  /** Reads them again; every question from now on gets the new set. A failed read keeps what was held (nothing held: the next question reads). */
  reload(): Promise<ReadonlySet<string>> {
    const previous = this.held;
    const load = ++this.loads;
    const loading = this.data.poolSizing.overrides().then((overrides): ReadonlySet<string> => new Set(overrides.map((override) => override.lessonSlug)));
    this.held = loading.catch((error: unknown) => {
      if (previous) return previous;
      if (this.loads === load) this.held = undefined;
      throw error;
    });
    return this.held;
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      if (this.held)
        this.reload().catch((error: unknown) => this.logger.warn(`could not read the pool sizes: ${error instanceof Error ? error.message : String(error)}`));
    }, this.refreshMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
