import type { KubeObject } from '../api/object.js';
import { BUILTIN_RESOURCES, type ResourceType } from '../api/resources.js';
import { resourceKey } from '../api/store.js';
import { age } from './age.js';
import { CUSTOM_PRINTER, DEFAULT_PRINTER, PRINTERS, type Printer } from './columns.js';

/** Whether the client asked for `Accept: application/json;as=Table;v=v1;g=meta.k8s.io` (kubectl get does). */
export function wantsTable(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((part) => {
    const params = new Map(
      part
        .split(';')
        .slice(1)
        .map((p) => p.trim().split('=') as [string, string]),
    );
    return params.get('as') === 'Table' && params.get('g') === 'meta.k8s.io' && (params.get('v') === 'v1' || params.get('v') === 'v1beta1');
  });
}

interface PrinterColumn {
  name: string;
  type: string;
  jsonPath: string;
  priority?: number;
  description?: string;
  format?: string;
}

/** `.spec.replicas`-style paths of a CRD's additionalPrinterColumns (the simple JSONPath subset). */
const at = (object: unknown, jsonPath: string): unknown =>
  jsonPath
    .replace(/^\{?\.?/, '')
    .replace(/\}$/, '')
    .split('.')
    .filter(Boolean)
    .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], object);

function crdPrinter(columns: PrinterColumn[]): Printer {
  return {
    columns: [
      CUSTOM_PRINTER.columns[0],
      ...columns.map((c) => ({ name: c.name, type: c.type as 'string', format: c.format ?? '', priority: c.priority ?? 0, description: c.description ?? '' })),
    ],
    cells: (o, now) => [o.metadata.name, ...columns.map((c) => (c.type === 'date' ? age(at(o, c.jsonPath), now) : (at(o, c.jsonPath) ?? '')))],
  };
}

/** The printer of a type: built-in columns, a CRD's additionalPrinterColumns, or the defaults. */
export function printerOf(type: ResourceType, crd?: KubeObject): Printer {
  const builtin = BUILTIN_RESOURCES.some((b) => b.group === type.group && b.plural === type.plural);
  if (builtin) return PRINTERS[resourceKey(type)] ?? DEFAULT_PRINTER;
  const versions = (crd?.spec?.versions as { name: string; additionalPrinterColumns?: PrinterColumn[] }[] | undefined) ?? [];
  const columns = versions.find((v) => v.name === type.version)?.additionalPrinterColumns;
  return columns?.length ? crdPrinter(columns) : CUSTOM_PRINTER;
}

type IncludeObject = 'None' | 'Metadata' | 'Object';

function rowObject(object: KubeObject, include: IncludeObject): unknown {
  if (include === 'None') return undefined;
  if (include === 'Object') return object;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: object.metadata };
}

/** A list or a single object as a `meta.k8s.io/v1` Table, as the API server's table convertor gives it. */
export function toTable(printer: Printer, body: unknown, query: URLSearchParams, now = Date.now()): unknown {
  const list = body as { items?: KubeObject[]; metadata?: Record<string, unknown> } & KubeObject;
  const items = Array.isArray(list.items) ? list.items : [list];
  const include = (query.get('includeObject') as IncludeObject | null) ?? 'Metadata';
  const metadata = Array.isArray(list.items) ? list.metadata : { resourceVersion: list.metadata.resourceVersion };
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata,
    columnDefinitions: printer.columns.map((c) => ({
      name: c.name,
      type: c.type ?? 'string',
      format: c.format ?? '',
      description: c.description ?? c.name,
      priority: c.priority ?? 0,
    })),
    rows: items.map((object) => ({ cells: printer.cells(object, now), object: rowObject(object, include) })),
  };
}
