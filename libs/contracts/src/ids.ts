import { z } from 'zod';
import { DNS1123_LABEL } from './dns.js';

/** Live lesson and live session ids: 10 characters of `[a-z0-9]`, as the original generates them. */
export const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const ID_LENGTH = 10;
/** Dev mode's fixed session id (original behaviour). */
export const DEV_MODE_SESSION_ID = 'antidotedevmode';

/**
 * Accepts the generated form and, for records made by other tools (dev mode, imports), any short
 * DNS-label-safe id.
 */
export const liveLessonIdSchema = z.string().min(1).max(40).regex(DNS1123_LABEL, 'must be lower-case letters, digits and "-"');
export const sessionIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, "-" and "_"');
/** Lesson slugs (curriculum rule: lower-case letters and hyphens). */
export const lessonSlugSchema = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[a-z-]+$/, 'must be lower-case letters and "-"');
