import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  anyOf?: Schema[];
  oneOf?: Schema[];
};
interface SwaggerFile {
  paths: Record<
    string,
    Record<string, { parameters?: (Schema & { name: string; in: string; schema?: Schema })[]; responses: Record<string, { schema?: Schema }> }>
  >;
  definitions: Record<string, Schema>;
}
interface OpenApiOperation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}
export interface OpenApi {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, Schema> };
}

/** The original's swagger files (byte-identical copies of ../shared/reference/antidote-exp-api). */
export const referenceFiles = (): [string, SwaggerFile][] => {
  const dir = join(import.meta.dirname, 'fixtures', 'exp-api');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.swagger.json'))
    .map((name) => [name, JSON.parse(readFileSync(join(dir, name), 'utf8')) as SwaggerFile]);
};

/**
 * Where `ours` (OpenAPI 3.1, from zod) cannot stand in for `theirs` (swagger 2.0): a property of theirs
 * missing from ours, or of an incompatible type, recursively through $ref, items and additionalProperties.
 * Ours may have more properties (clients of the original ignore them); a union of ours is compatible
 * when one branch is.
 */
export function schemaProblems(theirs: Schema, theirDefs: Record<string, Schema>, ours: Schema, ourDefs: Record<string, Schema>, at: string): string[] {
  const resolve = (schema: Schema, defs: Record<string, Schema>): Schema => (schema.$ref ? resolve(defs[schema.$ref.split('/').at(-1)!] ?? {}, defs) : schema);
  const their = resolve(theirs, theirDefs);
  const our = resolve(ours, ourDefs);
  const branches = our.anyOf ?? our.oneOf;
  if (branches) {
    const results = branches.map((branch) => schemaProblems(their, theirDefs, branch, ourDefs, at));
    return results.reduce((best, problems) => (problems.length < best.length ? problems : best));
  }
  const theirType = their.type ?? (their.properties ? 'object' : undefined);
  if (!theirType) return [];
  if (our.type !== theirType) return [`${at}: theirs ${theirType}, ours type ${String(our.type)}`];
  if (theirType === 'array' && their.items) return schemaProblems(their.items, theirDefs, our.items ?? {}, ourDefs, `${at}[]`);
  if (theirType !== 'object') return [];
  const problems: string[] = [];
  for (const [key, property] of Object.entries(their.properties ?? {})) {
    const mine = our.properties?.[key];
    if (!mine) problems.push(`${at}.${key}: missing`);
    else problems.push(...schemaProblems(property, theirDefs, mine, ourDefs, `${at}.${key}`));
  }
  if (typeof their.additionalProperties === 'object') {
    if (typeof our.additionalProperties !== 'object') problems.push(`${at}: theirs a map, ours not`);
    else problems.push(...schemaProblems(their.additionalProperties, theirDefs, our.additionalProperties, ourDefs, `${at}{}`));
  }
  return problems;
}

/** Every difference between the reference's `/exp` operations and ours: paths, methods, parameters, bodies, responses. */
export function referenceProblems(document: OpenApi): { problems: string[]; operations: number } {
  const problems: string[] = [];
  let operations = 0;
  for (const [file, swagger] of referenceFiles()) {
    for (const [path, methods] of Object.entries(swagger.paths)) {
      if (!path.startsWith('/exp')) continue;
      for (const [method, reference] of Object.entries(methods)) {
        operations++;
        const at = `${file} ${method.toUpperCase()} ${path}`;
        const ours = document.paths[path]?.[method];
        if (!ours) {
          problems.push(`${at}: not in our document`);
          continue;
        }
        for (const parameter of reference.parameters ?? []) {
          if (parameter.in === 'body') {
            const body = ours.requestBody?.content['application/json']?.schema;
            if (!body) problems.push(`${at}: no request body`);
            else problems.push(...schemaProblems(parameter.schema ?? {}, swagger.definitions, body, document.components.schemas, `${at} body`));
          } else if (!ours.parameters?.some((mine) => mine.name === parameter.name && mine.in === parameter.in)) {
            problems.push(`${at}: no ${parameter.in} parameter ${parameter.name}`);
          }
        }
        for (const [status, response] of Object.entries(reference.responses)) {
          const mine = ours.responses[status]?.content?.['application/json']?.schema;
          if (!mine) problems.push(`${at}: no ${status} JSON response`);
          else if (response.schema)
            problems.push(...schemaProblems(response.schema, swagger.definitions, mine, document.components.schemas, `${at} ${status}`));
        }
      }
    }
  }
  return { problems, operations };
}
