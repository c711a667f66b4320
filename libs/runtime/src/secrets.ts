/** Keys whose values never reach logs, traces or error messages. */
export const SECRET_KEYS = ['password', 'pass', 'token', 'sshPassword', 'configPassword', 'SSHPassword', 'authorization', 'adminToken', 'secret'] as const;

const CREDENTIALS_IN_URL = /([a-z][a-z0-9+.-]*:\/\/[^:/@\s]+):([^@\s/]+)@/gi;
const BEARER = /(bearer\s+)[A-Za-z0-9._~+/=-]+/gi;

/** Masks credentials embedded in text: `postgres://user:pw@host` → `postgres://user:***@host`, bearer tokens. */
export function maskSecretsInText(text: string): string {
  return text.replace(CREDENTIALS_IN_URL, '$1:***@').replace(BEARER, '$1***');
}

/** A deep copy with every secret-named key masked (for logs and span attributes). */
export function maskSecrets<T>(value: T, depth = 0): T {
  if (depth > 8) return value;
  if (typeof value === 'string') return maskSecretsInText(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => maskSecrets(item, depth + 1)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] = (SECRET_KEYS as readonly string[]).includes(key) && item !== undefined && item !== '' ? '***' : maskSecrets(item, depth + 1);
    }
    return out as T;
  }
  return value;
}
