import { createHash } from 'node:crypto';
import { DNS1123_LABEL_MAX, DNS1123_SUBDOMAIN_MAX, isDns1035Label, isDnsLabel, isDnsSubdomain } from '@antidote/contracts';

export { DNS1123_LABEL_MAX, DNS1123_SUBDOMAIN_MAX, isDns1035Label, isDnsLabel, isDnsSubdomain } from '@antidote/contracts';
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
export const LABEL_VALUE_MAX = 63;

/** Length of the hash suffix of a shortened name: 10 base32 characters = 50 bits. */
export const HASH_SUFFIX_LENGTH = 10;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** The first `length` base32 characters (a–z, 2–7) of SHA-256(input): stable across processes and versions. */
export function shortHash(input: string, length = HASH_SUFFIX_LENGTH): string {
  const digest = createHash('sha256').update(input, 'utf8').digest();
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of digest) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < length) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    if (out.length >= length) break;
  }
  return out;
}

export const isLabelValue = (value: string): boolean => value.length <= LABEL_VALUE_MAX && LABEL_VALUE.test(value);

const trimDashes = (text: string): string => text.replace(/^-+/, '').replace(/-+$/, '');
const sanitizeLabel = (text: string): string =>
  trimDashes(
    text
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/-{2,}/g, '-'),
  );

export interface DnsLabelOptions {
  /** Shorter limit than 63 (e.g. to leave room for a suffix the caller adds). */
  maxLength?: number;
  /** DNS-1035: the name must start with a letter (Services). */
  startWithLetter?: boolean;
}

/**
 * `name` itself when it is a valid label within the limit; otherwise a deterministic valid label: the
 * name lower-cased with invalid characters turned into `-`, cut to fit, then `-` and a hash of the
 * *original* name. Two different inputs never meet on one output unless their 50-bit hashes collide,
 * so shortening cannot truncate two long names into the same object.
 */
export function dnsLabel(name: string, options: DnsLabelOptions = {}): string {
  const maxLength = Math.min(options.maxLength ?? DNS1123_LABEL_MAX, DNS1123_LABEL_MAX);
  if (maxLength < HASH_SUFFIX_LENGTH + 1) throw new RangeError(`dnsLabel: maxLength ${maxLength} leaves no room for the hash`);
  const valid = options.startWithLetter ? isDns1035Label(name) : isDnsLabel(name);
  if (valid && name.length <= maxLength) return name;
  const hash = shortHash(name);
  let prefix = trimDashes(sanitizeLabel(name).slice(0, maxLength - HASH_SUFFIX_LENGTH - 1));
  if (options.startWithLetter && !/^[a-z]/.test(prefix)) prefix = trimDashes(`x${prefix}`.slice(0, maxLength - HASH_SUFFIX_LENGTH - 1));
  return prefix ? `${prefix}-${hash}` : hash;
}

/**
 * Like `dnsLabel` for DNS-1123 subdomains (dot-separated labels, 253 characters): used for object names
 * that may contain dots. The hash suffix is joined to the last label.
 */
export function dnsSubdomain(name: string, maxLength = DNS1123_SUBDOMAIN_MAX): string {
  const limit = Math.min(maxLength, DNS1123_SUBDOMAIN_MAX);
  if (isDnsSubdomain(name) && name.length <= limit) return name;
  const labels = name
    .split('.')
    .map(sanitizeLabel)
    .filter((label) => label.length > 0);
  const prefix = labels
    .join('.')
    .slice(0, limit - HASH_SUFFIX_LENGTH - 1)
    .replace(/[-.]+$/, '');
  const hash = shortHash(name);
  return prefix ? `${prefix}-${hash}` : hash;
}

/** A valid label value (≤ 63, alphanumeric at both ends, `-_.` inside); shortened with a hash otherwise. */
export function labelValue(value: string): string {
  if (isLabelValue(value)) return value;
  const hash = shortHash(value);
  const cleaned = value.replace(/[^-A-Za-z0-9_.]+/g, '-');
  const prefix = cleaned
    .slice(0, LABEL_VALUE_MAX - HASH_SUFFIX_LENGTH - 1)
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/[^A-Za-z0-9]+$/, '');
  return prefix ? `${prefix}-${hash}` : hash;
}
