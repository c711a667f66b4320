import { z } from 'zod';

const MiB = 1024 * 1024;
const count = (max: number) => z.number().int().min(1).max(max);

/**
 * Bounds of one curriculum read (`antictl curriculum validate|import`, the api's import at start). A
 * curriculum is input from outside: every read is bounded in files, bytes, nesting and time, and each
 * breach is reported as a problem naming the file and the limit.
 */
export const curriculumLimitsSchema = z
  .object({
    /** Largest meta file (`*.meta.yaml`). */
    metaFileBytes: count(64 * MiB).default(MiB),
    /** Largest lesson guide (`guide.md`, `guide.ipynb`). */
    guideBytes: count(256 * MiB).default(5 * MiB),
    /** Bytes read from the whole curriculum. */
    totalBytes: count(16 * 1024 * MiB).default(64 * MiB),
    /** Folder levels below `lessons/`, `collections/`, `images/` and a stage's `configs/`. */
    folderDepth: count(256).default(16),
    /** Folder entries listed in the whole curriculum. */
    entries: count(10_000_000).default(50_000),
    /** Nesting of a YAML document (mappings, lists, flow collections), checked before it is parsed. */
    yamlDepth: count(1_000_000).default(64),
    /** Alias expansions (`*name`) in one YAML document: an alias bomb stops here. */
    yamlAliases: count(1_000_000).default(100),
    /** Wall time of one read. */
    seconds: z.number().positive().max(3600).default(15),
    /** Heap of the worker thread a read runs in. */
    memoryMb: count(64 * 1024).default(1024),
  })
  .strict();

export type CurriculumLimits = z.infer<typeof curriculumLimitsSchema>;

/** The limits when the configuration says nothing. */
export const DEFAULT_CURRICULUM_LIMITS: CurriculumLimits = curriculumLimitsSchema.parse({});
