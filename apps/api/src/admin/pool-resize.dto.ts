import { z } from 'zod';

/** `PUT /exp/admin/pools/:slug`: members kept READY from now on (0 drains the pool) and, optionally, their maxAge in seconds (0 = forever). */
export const poolResizeSchema = z
  .object({
    size: z.number().int().min(0).max(1000),
    maxAge: z.number().int().min(0).optional(),
  })
  .strict();
