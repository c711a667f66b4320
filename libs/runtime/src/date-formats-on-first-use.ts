/**
 * NestJS makes two `Intl.DateTimeFormat`s when it is imported (its console loggers' timestamps), and
 * making one reads ~4 MiB of the ICU data in node's binary into every app's memory (measured: an app
 * importing NestJS, 73 → 69.5 MiB RSS). Our apps log through pino with ISO times and never use them.
 * So this module, evaluated first by `@antidote/runtime` (before anything of NestJS), stands in a
 * `DateTimeFormat` made on first use while NestJS is imported; `startService` puts the real one back
 * before the app starts, so any other code gets `Intl` untouched.
 */
const EagerDateTimeFormat = Intl.DateTimeFormat;

/** A DateTimeFormat with the same answers, made (and its ICU data read) on first use. */
class DateTimeFormatOnFirstUse {
  private made?: Intl.DateTimeFormat;

  constructor(
    private readonly locales?: string | string[],
    private readonly options?: Intl.DateTimeFormatOptions,
  ) {}

  private get real(): Intl.DateTimeFormat {
    return (this.made ??= new EagerDateTimeFormat(this.locales, this.options));
  }

  format(date?: Date | number): string {
    return this.real.format(date);
  }

  formatToParts(date?: Date | number): Intl.DateTimeFormatPart[] {
    return this.real.formatToParts(date);
  }

  resolvedOptions(): Intl.ResolvedDateTimeFormatOptions {
    return this.real.resolvedOptions();
  }
}

Object.assign(DateTimeFormatOnFirstUse, { supportedLocalesOf: EagerDateTimeFormat.supportedLocalesOf.bind(EagerDateTimeFormat) });
Intl.DateTimeFormat = DateTimeFormatOnFirstUse as unknown as typeof Intl.DateTimeFormat;

/** Puts the real `Intl.DateTimeFormat` back (once NestJS is imported). */
export function restoreDateTimeFormat(): void {
  Intl.DateTimeFormat = EagerDateTimeFormat;
}
