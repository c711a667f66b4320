import type { KubeObject } from './object.js';
import { apiVersionOf, type ResourceType } from './resources.js';
import { undecodable } from './status.js';

/** MicroTime as the real server parses it: exactly 6 fractional digits. */
const MICRO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}(Z|[+-]\d\d:\d\d)$/;
const MICRO_TIME_FIELDS: Record<string, string[]> = { 'coordination.k8s.io/leases': ['acquireTime', 'renewTime'] };
const BASE64 = /^[A-Za-z0-9+/]*$/;

/** The internal package a kind converts to (`core.Pod`, `batch.Job`), as conversion errors name it. */
const internalName = (type: ResourceType): string => `${type.group ? type.group.split('.')[0] : 'core'}.${type.kind}`;

/** A request body's kind and apiVersion must be the path's (400 otherwise, worded as the real decoder). */
export function checkBodyKind(type: ResourceType, version: string, object: KubeObject): void {
  const bodyVersion = object.apiVersion ?? apiVersionOf({ group: type.group, version });
  const bodyKind = object.kind ?? type.kind;
  if (bodyKind !== type.kind) {
    throw undecodable(
      bodyKind,
      bodyVersion,
      type.kind,
      `converting (${bodyVersion.split('/').pop()}.${bodyKind}) to (${internalName(type)}): unknown conversion`,
    );
  }
  if (object.apiVersion && object.apiVersion !== apiVersionOf({ group: type.group, version })) {
    throw undecodable(
      bodyKind,
      bodyVersion,
      type.kind,
      `no kind "${bodyKind}" is registered for version "${bodyVersion}" in scheme "pkg/api/legacyscheme/scheme.go:30"`,
    );
  }
}

/** Go's base64 error: the offset of the first byte it cannot take. */
function base64Error(value: string): string | undefined {
  const body = value.replace(/=+$/, '');
  const bad = [...body].findIndex((char) => !BASE64.test(char));
  if (bad >= 0) return `illegal base64 data at input byte ${bad}`;
  if (value.length % 4 !== 0) return `illegal base64 data at input byte ${value.length - (value.length % 4)}`;
  return undefined;
}

/**
 * What decoding a body does on a real server: MicroTime fields parsed (400 when not exactly 6 fractional
 * digits), Secret data base64-decoded (400 when it is not base64), Secret stringData merged into data.
 */
export function decodeObject(type: ResourceType, object: KubeObject): void {
  const version = object.apiVersion?.split('/').pop() ?? type.version;
  for (const field of MICRO_TIME_FIELDS[`${type.group}/${type.plural}`] ?? []) {
    const value = object.spec?.[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' || !MICRO_TIME.test(value)) {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      throw undecodable(
        type.kind,
        version,
        type.kind,
        `parsing time "${text}" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "${text.slice(19)}" as ".000000"`,
      );
    }
  }
  if (type.group === '' && type.plural === 'secrets') {
    for (const value of Object.values((object.data as Record<string, unknown> | undefined) ?? {})) {
      const error = typeof value === 'string' ? base64Error(value) : 'illegal base64 data at input byte 0';
      if (error) throw undecodable(type.kind, version, type.kind, error);
    }
    const stringData = object.stringData as Record<string, string> | undefined;
    if (stringData) {
      object.data = {
        ...(object.data as Record<string, string> | undefined),
        ...Object.fromEntries(Object.entries(stringData).map(([key, text]) => [key, Buffer.from(String(text), 'utf8').toString('base64')])),
      };
      delete object.stringData;
    }
  }
}
