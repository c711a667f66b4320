/**
 * Systematic hostile input: whole bodies that are not what any handler expects, and every field of a
 * valid sample replaced by each wrong value (and an unknown field added). Deterministic, so a failure
 * names the exact input.
 */

const deep = (levels: number): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = [value];
  return value;
};

/** Values of the wrong kind, size or range for any field. */
export const HOSTILE_VALUES: Array<[string, unknown]> = [
  ['null', null],
  ['true', true],
  ['zero', 0],
  ['negative', -1],
  ['fraction', 0.5],
  ['huge number', 1e308],
  ['empty string', ''],
  ['10 KiB string', 'x'.repeat(10_240)],
  ['path traversal', '../../etc/passwd'],
  ['control characters', 'a\u0000b\u001b[2J'],
  ['unicode', 'λ-💥-\u202e'],
  ['empty object', {}],
  ['empty array', []],
  ['nested 2,000 deep', deep(2000)],
  ['__proto__ object', JSON.parse('{"__proto__":{"polluted":true}}')],
];

/** Raw bodies (bytes on the wire) that are not a JSON object. */
export const HOSTILE_BODIES: Array<[string, string | Uint8Array]> = [
  ['empty', ''],
  ['not JSON', 'hello'],
  ['truncated JSON', '{"liveLessonId": "abc'],
  ['JSON null', 'null'],
  ['JSON number', '42'],
  ['JSON string', '"liveLessonId"'],
  ['JSON array', '[{"liveLessonId":"abcdef1234"}]'],
  ['invalid UTF-8', new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])],
  ['nested 2,000 deep', JSON.stringify(deep(2000))],
  ['__proto__ pollution', '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'],
  ['512 KiB string', JSON.stringify({ liveLessonId: 'a'.repeat(512 * 1024) })],
];

/** `sample` with each field in turn set to each hostile value, without it, and with an unknown field added. */
export function mutations(sample: Record<string, unknown>): Array<[string, Record<string, unknown>]> {
  const out: Array<[string, Record<string, unknown>]> = [['unknown field', { ...sample, unexpected: 1 }]];
  for (const field of Object.keys(sample)) {
    const { [field]: _dropped, ...without } = sample;
    out.push([`${field} missing`, without]);
    for (const [name, value] of HOSTILE_VALUES) out.push([`${field} = ${name}`, { ...sample, [field]: value }]);
  }
  return out;
}
