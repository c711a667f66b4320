import { basename, join, relative } from 'node:path';
import type { z } from 'zod';
import type { LessonEndpoint } from '../curriculum.model.js';
import type { ProblemList } from '../problem.js';
import type { SafeFs } from '../safe-fs.js';
import { LimitError, UnsafePathError } from '../safe-fs.js';
import type { lessonSchema } from '../schemas/curriculum.schemas.js';

/** The endpoint the scheduler adds for Jupyter guides (pod, Service and ingress names): a lesson may not use it. */
export const RESERVED_ENDPOINT_NAMES = ['jupyterlabguide'] as const;

type ParsedLesson = Pick<z.output<typeof lessonSchema>, 'stages' | 'endpoints' | 'connections'>;
type ParsedEndpoint = ParsedLesson['endpoints'][number];

export const NAPALM_DRIVERS = ['junos', 'eos', 'iosxr', 'nxos', 'nxos_ssh', 'ios'] as const;
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Does `fileName` configure `endpoint` for its type? Anchored on the whole base name (the original matched anywhere in the path). */
export function configFileMatches(endpoint: Pick<ParsedEndpoint, 'name' | 'configurationType'>, fileName: string): boolean {
  switch (endpoint.configurationType) {
    case 'python':
      return fileName === `${endpoint.name}.py`;
    case 'ansible':
      return fileName === `${endpoint.name}.yml`;
    case 'napalm':
      return new RegExp(`^${escape(endpoint.name)}-(${NAPALM_DRIVERS.join('|')})\\.txt$`).test(fileName);
    case '':
      return false;
  }
}

/** The rules of reference §2.3 (2–7) for one schema-valid lesson, all of them, plus ours; returns the ingest-time fields. */
export async function checkLesson(
  lesson: ParsedLesson,
  lessonDir: string,
  file: string,
  fs: SafeFs,
  problems: ProblemList,
): Promise<{ endpoints: LessonEndpoint[]; guides: string[] }> {
  const names = new Set<string>();
  lesson.endpoints.forEach((endpoint, i) => {
    if (names.has(endpoint.name)) problems.add(file, 'duplicate-endpoints', `Duplicate endpoints detected: "${endpoint.name}"`, `endpoints[${i}].name`);
    names.add(endpoint.name);
    if ((RESERVED_ENDPOINT_NAMES as readonly string[]).includes(endpoint.name)) {
      problems.add(file, 'reserved-name', `"${endpoint.name}" is reserved for the endpoint Antidote adds for Jupyter guides`, `endpoints[${i}].name`);
    }
    if (endpoint.configurationType === 'napalm' && /[-.]/.test(endpoint.name)) {
      problems.add(
        file,
        'napalm-name',
        'napalm endpoint names must not contain "-" or "." (the driver is read from "<name>-<driver>.txt")',
        `endpoints[${i}].name`,
      );
    }
    if (endpoint.presentations.length === 0 && endpoint.additionalPorts.length === 0) {
      problems.add(file, 'no-ports', 'No presentations configured, and no additionalPorts specified', `endpoints[${i}]`);
    }
    const presentations = new Set<string>();
    endpoint.presentations.forEach((presentation, j) => {
      if (presentations.has(presentation.name))
        problems.add(file, 'duplicate-presentations', `Duplicate presentations detected: "${presentation.name}"`, `endpoints[${i}].presentations[${j}].name`);
      presentations.add(presentation.name);
    });
  });
  lesson.connections.forEach((connection, i) => {
    for (const side of ['a', 'b'] as const) {
      if (!names.has(connection[side]))
        problems.add(file, 'malformed-connection', `Malformed connection: no endpoint named "${connection[side]}"`, `connections[${i}].${side}`);
    }
  });
  const endpoints: LessonEndpoint[] = [];
  for (const [i, endpoint] of lesson.endpoints.entries()) {
    const configurationFiles: Record<number, string> = {};
    let configurationFile = '';
    if (endpoint.configurationType) {
      for (let stage = 0; stage < lesson.stages.length; stage++) {
        const configsDir = join(lessonDir, `stage${stage}`, 'configs');
        const matches = await fs.find(
          configsDir,
          (name) => configFileMatches(endpoint, name),
          (error) => problems.add(fs.relative(error.path), 'unsafe-path', error.message),
        );
        const last = matches[matches.length - 1];
        if (!last) {
          problems.add(
            file,
            'config-file',
            `Configuration file not found: stage${stage}/configs/ has no ${expectedName(endpoint)}`,
            `endpoints[${i}].configurationType`,
          );
          continue;
        }
        configurationFiles[stage] = relative(lessonDir, last);
        configurationFile = basename(last);
      }
    }
    endpoints.push({ ...endpoint, configurationFile, configurationFiles });
  }
  const guides: string[] = [];
  for (const [stage, definition] of lesson.stages.entries()) {
    const guide = join(lessonDir, `stage${stage}`, definition.guideType === 'jupyter' ? 'guide.ipynb' : 'guide.md');
    try {
      guides.push(await fs.readText(guide, fs.limits.guideBytes));
    } catch (error) {
      if (error instanceof LimitError) throw error;
      const why = error instanceof UnsafePathError ? error.message : 'is missing or unreadable';
      problems.add(file, 'guide', `Couldn't find/read lesson guide: stage${stage}/${basename(guide)} ${why}`, `stages[${stage}].guideType`);
      guides.push('');
    }
  }
  return { endpoints, guides };
}

function expectedName(endpoint: Pick<ParsedEndpoint, 'name' | 'configurationType'>): string {
  switch (endpoint.configurationType) {
    case 'python':
      return `${endpoint.name}.py`;
    case 'ansible':
      return `${endpoint.name}.yml`;
    case 'napalm':
    case '':
      return `${endpoint.name}-<${NAPALM_DRIVERS.join('|')}>.txt`;
  }
}
