import type { ValueTransformer } from 'typeorm';

/**
 * Column transformers that make SQLite and PostgreSQL behave the same: times as epoch milliseconds in
 * a bigint (compare correctly in SQL, no time-zone surprises), flags as 0/1, nested data as JSON text.
 */
export const epochMs: ValueTransformer = {
  to: (value: Date | null | undefined) => (value instanceof Date ? value.getTime() : (value ?? null)),
  from: (value: string | number | null) => (value === null || value === undefined ? null : new Date(Number(value))),
};

export const flag: ValueTransformer = {
  to: (value: boolean | null | undefined) => (value === null || value === undefined ? value : value ? 1 : 0),
  from: (value: number | string | boolean | null) => (value === null ? null : Number(value) === 1 || value === true),
};

export const json: ValueTransformer = {
  to: (value: unknown) => (value === undefined ? null : JSON.stringify(value)),
  from: (value: string | null) => (value === null ? null : (JSON.parse(value) as unknown)),
};
