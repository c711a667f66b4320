import { clone } from './object.js';
import { badRequest } from './status.js';

type Json = unknown;

const isObject = (value: Json): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** RFC 7386 JSON merge patch (also used for strategic merge and apply patches of our kinds). */
export function mergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return clone(patch);
  const result: Record<string, Json> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

const unescape = (token: string): string => token.replace(/~1/g, '/').replace(/~0/g, '~');

function parentOf(document: Json, path: string): { parent: Record<string, Json> | Json[]; key: string } {
  if (!path.startsWith('/')) throw badRequest(`invalid JSON patch path ${path}`);
  const tokens = path.slice(1).split('/').map(unescape);
  let node: Json = document;
  for (const token of tokens.slice(0, -1)) {
    node = Array.isArray(node) ? node[Number(token)] : isObject(node) ? node[token] : undefined;
    if (node === undefined) throw badRequest(`JSON patch path ${path} does not exist`);
  }
  if (!Array.isArray(node) && !isObject(node)) throw badRequest(`JSON patch path ${path} does not exist`);
  return { parent: node, key: tokens[tokens.length - 1] };
}

interface Operation {
  op: string;
  path: string;
  value?: Json;
  from?: string;
}

/** RFC 6902 JSON patch: add, remove, replace, test, move, copy. */
export function jsonPatch(document: Json, operations: Json): Json {
  if (!Array.isArray(operations)) throw badRequest('a JSON patch must be an array of operations');
  const result = clone(document);
  const get = (path: string): Json => {
    const { parent, key } = parentOf(result, path);
    return Array.isArray(parent) ? parent[Number(key)] : parent[key];
  };
  const set = (path: string, value: Json, insert: boolean): void => {
    const { parent, key } = parentOf(result, path);
    if (Array.isArray(parent)) {
      const index = key === '-' ? parent.length : Number(key);
      if (insert) parent.splice(index, 0, value);
      else parent[index] = value;
    } else parent[key] = value;
  };
  const remove = (path: string): void => {
    const { parent, key } = parentOf(result, path);
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
  };
  for (const operation of operations as Operation[]) {
    switch (operation.op) {
      case 'add':
        set(operation.path, clone(operation.value), true);
        break;
      case 'replace':
        set(operation.path, clone(operation.value), false);
        break;
      case 'remove':
        remove(operation.path);
        break;
      case 'test':
        if (JSON.stringify(get(operation.path)) !== JSON.stringify(operation.value)) throw new Error(`test failed at ${operation.path}`);
        break;
      case 'move': {
        const value = get(operation.from ?? '');
        remove(operation.from ?? '');
        set(operation.path, value, true);
        break;
      }
      case 'copy':
        set(operation.path, clone(get(operation.from ?? '')), true);
        break;
      default:
        throw badRequest(`unknown JSON patch operation ${operation.op}`);
    }
  }
  return result;
}
