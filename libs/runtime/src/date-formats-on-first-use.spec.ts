import { afterEach, describe, expect, it, vi } from 'vitest';

const EAGER = Intl.DateTimeFormat;
const OPTIONS: Intl.DateTimeFormatOptions = { year: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', day: '2-digit', month: '2-digit' };
const WHEN = Date.UTC(2026, 11, 7, 17, 5, 9);

/** The module evaluated afresh, as an app's first import evaluates it. */
async function evaluated(): Promise<typeof import('./date-formats-on-first-use.js')> {
  Intl.DateTimeFormat = EAGER;
  vi.resetModules();
  return import('./date-formats-on-first-use.js');
}

describe('date formats made on first use', () => {
  afterEach(() => {
    Intl.DateTimeFormat = EAGER;
  });

  it('stands in for Intl.DateTimeFormat until restored, with the same answers', async () => {
    const { restoreDateTimeFormat } = await evaluated();
    expect(Intl.DateTimeFormat).not.toBe(EAGER);
    const standIn = new Intl.DateTimeFormat('en-GB', { ...OPTIONS, timeZone: 'UTC' });
    const real = new EAGER('en-GB', { ...OPTIONS, timeZone: 'UTC' });
    expect(standIn.format(WHEN)).toBe(real.format(WHEN));
    expect(standIn.format(WHEN)).toBe('07/12/2026, 17:05:09');
    expect(standIn.formatToParts(WHEN)).toEqual(real.formatToParts(WHEN));
    expect(standIn.resolvedOptions()).toEqual(real.resolvedOptions());
    expect(Intl.DateTimeFormat.supportedLocalesOf(['en-GB'])).toEqual(['en-GB']);
    restoreDateTimeFormat();
    expect(Intl.DateTimeFormat).toBe(EAGER);
  });

  it('is what NestJS makes its loggers with when imported after it', async () => {
    await evaluated();
    vi.resetModules();
    const made = vi.spyOn(Intl, 'DateTimeFormat');
    await import('@nestjs/common');
    expect(made.mock.results.map((result) => (result.value as object).constructor.name)).toContain('DateTimeFormatOnFirstUse');
  });
});
