import type { Tier } from './curriculum.model.js';

const RANK: Record<string, number> = { prod: 3, ptr: 2, local: 1 };

/** Whether a resource of `tier` is imported by a deployment configured for `configured` (reference §2.2). */
export const includedAt = (tier: string, configured: Tier): boolean => (RANK[tier] ?? 0) >= RANK[configured];
