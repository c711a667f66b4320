import { readinessCheckSchema } from '@antidote/contracts';
import { z } from 'zod';
import { ENDPOINT_NAME, IMAGE_SLUG, list, oneOf, optionalText, port, PRESENTATION_NAME, required, SLUG, text, TIERS } from './fields.js';

const slug = required().pipe(z.string().regex(SLUG, 'must be lower-case letters and "-" only'));

export const curriculumMetaSchema = z.object({
  name: required(),
  description: required(),
  website: required(),
  aVer: required(),
  gitRoot: required(),
});

export const collectionSchema = z.object({
  slug,
  title: required(),
  image: required(),
  website: required(),
  contactEmail: optionalText,
  briefDescription: required(),
  longDescription: required(),
  type: oneOf(['vendor', 'community', 'consultancy']),
  tier: oneOf(TIERS),
});

export const imageSchema = z.object({
  slug: required().pipe(z.string().regex(IMAGE_SLUG, 'must be letters, digits and "-" only')),
  description: optionalText,
  flavor: oneOf(['legacy', 'trusted', 'untrusted']),
  enableForwarding: z
    .preprocess((value) => (value === null ? undefined : value), z.boolean({ error: 'must be true or false' }).optional())
    .transform((value) => value ?? false),
  networkInterfaces: list(text).refine(
    (names) => !names.includes('eth0'),
    "Not allowed to include 'eth0' in networkInterfaces; it is the pod's default network",
  ),
  sshUser: required(),
  sshPassword: required(),
  configUser: required(),
  configPassword: required(),
  /** Optional: how to tell an endpoint of this image is ready (not only reachable); absent → reachable is ready. */
  readiness: z.preprocess((value) => (value === null ? undefined : value), readinessCheckSchema.optional()),
});

const presentationSchema = z.object({
  name: text.pipe(
    z.string().max(63, 'must be at most 63 characters').regex(PRESENTATION_NAME, 'must be a DNS-1123 label (lower-case letters, digits and "-")'),
  ),
  port,
  type: oneOf(['http', 'ssh']),
});

const endpointSchema = z.object({
  name: required().pipe(
    z
      .string()
      .max(63, 'must be at most 63 characters')
      .regex(ENDPOINT_NAME, 'must be a DNS-1035 label (a lower-case letter, then lower-case letters, digits and "-")'),
  ),
  image: required().pipe(z.string().regex(IMAGE_SLUG, 'must be an image slug (letters, digits and "-"), not an image reference')),
  configurationType: z.preprocess((value) => (value === null || value === undefined ? '' : value), oneOf(['', 'napalm', 'python', 'ansible'])),
  additionalPorts: list(port),
  presentations: list(presentationSchema),
});

const connectionSchema = z.object({
  a: required(),
  b: required(),
  subnet: optionalText.pipe(z.string().regex(/^$|^\d{1,3}(\.\d{1,3}){3}\/\d{1,2}$/, 'must be an IPv4 CIDR such as 10.1.0.0/24')),
});

const stageSchema = z.object({
  description: optionalText,
  guideType: oneOf(['markdown', 'jupyter']),
  stageVideo: optionalText,
});

export const lessonSchema = z.object({
  name: required(),
  slug,
  category: oneOf(['fundamentals', 'tools', 'workflows']),
  diagram: optionalText,
  video: optionalText,
  tier: oneOf(TIERS),
  collection: optionalText,
  description: required(),
  shortDescription: required(),
  prereqs: list(text),
  tags: list(text),
  stages: list(stageSchema).refine((stages) => stages.length > 0, 'must have at least one stage'),
  endpoints: list(endpointSchema).refine((endpoints) => endpoints.length > 0, 'must have at least one endpoint'),
  connections: list(connectionSchema),
  authors: list(z.object({ name: optionalText, link: optionalText })),
  readyDelay: z
    .preprocess((value) => (value === null ? undefined : value), z.number({ error: 'must be a number of seconds' }).int().min(0).max(3600).optional())
    .transform((value) => value ?? 0),
});

/** The parts the lesson rules need, parsed on their own when the whole lesson fails its schema. */
export const lessonPartsSchema = lessonSchema.pick({ stages: true, endpoints: true, connections: true });

/** Keys known at each level (for unknown-key warnings); `privileged` is a legacy image key, accepted silently. */
export const KNOWN_KEYS = {
  curriculum: Object.keys(curriculumMetaSchema.shape),
  collection: Object.keys(collectionSchema.shape),
  image: [...Object.keys(imageSchema.shape), 'privileged'],
  lesson: Object.keys(lessonSchema.shape),
  stage: Object.keys(stageSchema.shape),
  endpoint: Object.keys(endpointSchema.shape),
  presentation: Object.keys(presentationSchema.shape),
  connection: Object.keys(connectionSchema.shape),
  author: ['name', 'link'],
} as const;
