import { isIP } from 'node:net';

/** The 16 bytes of an IPv6 address (`::` shorthand, an embedded IPv4 tail and a `%zone` allowed); undefined if it is none. */
export function ipv6Bytes(address: string): Uint8Array | undefined {
  const plain = address.split('%')[0];
  if (isIP(plain) !== 6) return undefined;
  const [head, tail] = plain.includes('::') ? plain.split('::') : [plain, undefined];
  const groups = (part: string | undefined): number[] =>
    (part ? part.split(':') : []).flatMap((group) => {
      if (!group.includes('.')) return [parseInt(group, 16)];
      const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number];
      return [(a << 8) | b, (c << 8) | d];
    });
  const left = groups(head);
  const right = groups(tail);
  const all = tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  const bytes = new Uint8Array(16);
  all.forEach((group, index) => {
    bytes[index * 2] = group >> 8;
    bytes[index * 2 + 1] = group & 0xff;
  });
  return bytes;
}

/** RFC 5952 text of 16 bytes: lower-case hex, no leading zeros, the longest run of two or more zero groups as `::`. */
export function ipv6Text(bytes: Uint8Array): string {
  const groups = Array.from({ length: 8 }, (_, index) => (bytes[index * 2] << 8) | bytes[index * 2 + 1]);
  let best = { start: -1, length: 1 };
  for (let start = 0; start < 8; start++) {
    let length = 0;
    while (start + length < 8 && groups[start + length] === 0) length++;
    if (length > best.length) best = { start, length };
  }
  const hex = groups.map((group) => group.toString(16));
  if (best.start < 0) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
}
