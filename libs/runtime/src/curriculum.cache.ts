import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { EventSubjects } from '@antidote/contracts';
import { CurriculumSnapshot, DataManager } from '@antidote/data';
import { BusClient } from '@antidote/messaging';

/** How often the curriculum record is looked at for an import no event announced (a tool writing the database, an event lost). */
export const CURRICULUM_CHECK_MS = 5_000;
/** Injection token: another period for that look (tests). */
export const CURRICULUM_CHECK_PERIOD = Symbol('CURRICULUM_CHECK_PERIOD');

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The curriculum an app holds in memory (CurriculumSnapshot), kept to the current import: loaded again
 * when an import is announced on the bus (every replica hears it), when the bus connection comes back
 * (an announcement may have been missed), and when the periodic look at the curriculum record finds
 * another import.
 */
@Injectable()
export class CurriculumCache extends CurriculumSnapshot implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Curriculum');
  private subscription?: Awaited<ReturnType<BusClient['subscribe']>>;
  private timer?: NodeJS.Timeout;
  private stopListening = (): void => undefined;

  constructor(
    @Inject(DataManager) data: DataManager,
    @Inject(BusClient) private readonly bus: Pick<BusClient, 'subscribe' | 'onReconnect'>,
    @Optional() @Inject(CURRICULUM_CHECK_PERIOD) private readonly checkMs: number = CURRICULUM_CHECK_MS,
  ) {
    super(data.curriculum);
  }

  /** Settles once announcements are heard (the subscription made, or it failed: warned). */
  listening: Promise<void> = Promise.resolve();

  onApplicationBootstrap(): void {
    // Not awaited: an app starts while NATS is away, and subscribes once it is there.
    this.listening = this.bus
      .subscribe(EventSubjects.curriculumImported, () => this.refresh().catch((error: unknown) => this.warn('load the new curriculum', error)))
      .then((subscription) => void (this.subscription = subscription))
      .catch((error: unknown) => this.warn('hear curriculum imports', error));
    this.stopListening = this.bus.onReconnect(() => void this.look());
    this.timer = setInterval(() => void this.look(), this.checkMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    this.stopListening();
    this.subscription?.unsubscribe();
  }

  private async look(): Promise<void> {
    await this.check().catch((error: unknown) => this.warn('check the curriculum', error));
  }

  private warn(what: string, error: unknown): void {
    this.logger.warn(`could not ${what}: ${reasonOf(error)}`);
  }
}
