/** Kubernetes resource quantities (`500m`, `2`, `256Mi`, `1G`, `1e3`) as numbers in base units, and back. */
const SUFFIX: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

export function parseQuantity(text: string | number | undefined): number {
  if (typeof text === 'number') return text;
  const match = /^([+-]?[0-9.]+)([eE][+-]?\d+)?(n|u|m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/.exec(String(text ?? '0').trim());
  if (!match) return Number.NaN;
  return Number(`${match[1]}${match[2] ?? ''}`) * SUFFIX[match[3] ?? ''];
}

const BINARY = ['Ei', 'Pi', 'Ti', 'Gi', 'Mi', 'Ki'];
const DECIMAL = ['E', 'P', 'T', 'G', 'M', 'k'];

/** The canonical text of a quantity: cpu in cores or millicores, the rest in the largest exact suffix. */
export function formatQuantity(value: number, resource: string): string {
  if (/cpu$/.test(resource)) {
    const milli = Math.round(value * 1000);
    return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
  }
  const whole = Math.round(value);
  if (whole === 0) return '0';
  for (const suffix of [...BINARY, ...DECIMAL]) if (whole % SUFFIX[suffix] === 0) return `${whole / SUFFIX[suffix]}${suffix}`;
  return String(whole);
}
