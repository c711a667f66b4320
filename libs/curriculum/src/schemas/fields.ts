import { DNS1035_LABEL, DNS1123_LABEL } from '@antidote/contracts';
import { z } from 'zod';

/** YAML gives `0.7` for an unquoted version; the original's Go decoder made such scalars strings. */
const scalarToString = (value: unknown): unknown => (typeof value === 'number' || typeof value === 'boolean' ? String(value) : value);
/** An empty YAML key (`prereqs:`) is null: treat it as absent. */
const nullToUndefined = (value: unknown): unknown => (value === null ? undefined : value);

export const text = z.preprocess(scalarToString, z.string({ error: 'must be a string' }));
export const required = (what = 'must not be empty') => z.preprocess(scalarToString, z.string({ error: 'is required (a string)' }).min(1, what));
export const optionalText = z.preprocess((value) => nullToUndefined(scalarToString(value)), text.optional()).transform((value) => value ?? '');
export const list = <T extends z.ZodType>(item: T) =>
  z.preprocess(nullToUndefined, z.array(item, { error: 'must be a list' }).optional()).transform((value) => value ?? []);
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(scalarToString, z.enum(values, { error: `must be one of ${values.join(', ')}` }));
export const port = z.number({ error: 'must be a port number' }).int('must be a whole number').min(1, 'must be at least 1').max(65535, 'must be at most 65535');

/** Lower-case letters and `-` (the original's slug pattern, which allows no digits). */
export const SLUG = /^[a-z-]*$/;
/** The original's image slug pattern. */
export const IMAGE_SLUG = /^[A-Za-z0-9-]*$/;
/** Endpoint names become pod, container and Service names and DNS labels: DNS-1035 labels. */
export const ENDPOINT_NAME = DNS1035_LABEL;
/** Presentation names end up inside DNS labels (HEP domains, ingress names): DNS-1123 labels. */
export const PRESENTATION_NAME = DNS1123_LABEL;
export const TIERS = ['prod', 'ptr', 'local'] as const;
