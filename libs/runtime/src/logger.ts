import type { LoggerService } from '@nestjs/common';
import { pino, type Logger as Pino } from 'pino';
import { currentCorrelationId } from './correlation.js';
import { maskSecrets, maskSecretsInText } from './secrets.js';

export type AppLogger = Pino;

/**
 * JSON logs (pino) for a service: one line per event, the service name and the current correlation
 * id on each, secrets masked in both structured fields and message text. Written to stdout as they
 * come (pino's synchronous destination): nothing is held back to flush at exit, where pino's buffered
 * destination retries a write to a closed stdout forever (EPIPE: its reader, a supervisor, is gone) and
 * the process never ends. A closed stdout turns logging off instead.
 */
export function createLogger(service: string, level = 'info', destination?: pino.DestinationStream): AppLogger {
  return pino(
    {
      level,
      base: { service },
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      mixin: () => {
        const correlationId = currentCorrelationId();
        return correlationId ? { correlationId } : {};
      },
      hooks: {
        logMethod(args, method) {
          const masked = args.map((arg: unknown) => (typeof arg === 'string' ? maskSecretsInText(arg) : maskSecrets(arg)));
          method.apply(this, masked as Parameters<typeof method>);
        },
      },
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

const levelOf = (context: unknown): string | undefined => (typeof context === 'string' ? context : undefined);

/** Nest's logger interface over pino, so framework and application logs share one format. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: AppLogger) {}

  log(message: unknown, context?: unknown): void {
    this.logger.info({ context: levelOf(context) }, String(message));
  }
  error(message: unknown, stackOrContext?: unknown, context?: unknown): void {
    this.logger.error({ context: levelOf(context ?? stackOrContext) }, String(message));
  }
  warn(message: unknown, context?: unknown): void {
    this.logger.warn({ context: levelOf(context) }, String(message));
  }
  debug(message: unknown, context?: unknown): void {
    this.logger.debug({ context: levelOf(context) }, String(message));
  }
  verbose(message: unknown, context?: unknown): void {
    this.logger.trace({ context: levelOf(context) }, String(message));
  }
  fatal(message: unknown, context?: unknown): void {
    this.logger.fatal({ context: levelOf(context) }, String(message));
  }
}
