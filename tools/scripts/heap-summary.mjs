// What holds a heap: a V8 heap snapshot (`node --heapsnapshot-signal=SIGUSR2`, then `kill -USR2 <pid>`;
// or `v8.writeHeapSnapshot()`) summed by constructor / node type — self size and count, largest first —
// and, for objects, by their property names (so `{metadata, status}` of a cached pod is told from a
// parsed watch line), and strings by how they begin.
//
//   node tools/scripts/heap-summary.mjs <file.heapsnapshot> [rows=30]
import { readFileSync } from 'node:fs';

const [file, rowsArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node tools/scripts/heap-summary.mjs <file.heapsnapshot> [rows]');
  process.exit(2);
}
const rows = Number(rowsArg ?? 30);
const snapshot = JSON.parse(readFileSync(file, 'utf8'));
const {
  node_fields: nodeFields,
  node_types: [nodeTypes],
  edge_fields: edgeFields,
  edge_types: [edgeTypes],
} = snapshot.snapshot.meta;
const { nodes, edges, strings } = snapshot;
const N = nodeFields.length;
const E = edgeFields.length;
const at = Object.fromEntries(nodeFields.map((field, i) => [field, i]));
const edgeAt = Object.fromEntries(edgeFields.map((field, i) => [field, i]));

const byName = new Map();
const byText = new Map();
const byShape = new Map();
let total = 0;
let edgeIndex = 0;
for (let n = 0; n < nodes.length; n += N) {
  const type = nodeTypes[nodes[n + at.type]];
  const size = nodes[n + at.self_size];
  const edgeCount = nodes[n + at.edge_count];
  total += size;
  const name = type === 'object' || type === 'closure' || type === 'native' ? `${type} ${strings[nodes[n + at.name]]}` : `(${type})`;
  const entry = byName.get(name) ?? { size: 0, count: 0 };
  entry.size += size;
  entry.count++;
  byName.set(name, entry);
  if (type === 'string') {
    const text = `${strings[nodes[n + at.name]].slice(0, 40)}`.replace(/\s+/g, ' ');
    const texts = byText.get(text) ?? { size: 0, count: 0 };
    texts.size += size;
    texts.count++;
    byText.set(text, texts);
  }
  if (type === 'object' && strings[nodes[n + at.name]] === 'Object') {
    const keys = [];
    for (let e = edgeIndex; e < edgeIndex + edgeCount * E; e += E) {
      if (edgeTypes[edges[e + edgeAt.type]] === 'property') keys.push(strings[edges[e + edgeAt.name_or_index]]);
    }
    const shape = `{${keys.slice(0, 6).join(',')}${keys.length > 6 ? ',…' : ''}}`;
    const shaped = byShape.get(shape) ?? { size: 0, count: 0 };
    shaped.size += size;
    shaped.count++;
    byShape.set(shape, shaped);
  }
  edgeIndex += edgeCount * E;
}

const mib = (bytes) => (bytes / 1048576).toFixed(1).padStart(7);
const table = (title, map) => {
  console.log(`${title}\n${'MiB'.padStart(7)} ${'count'.padStart(9)}  name`);
  for (const [name, { size, count }] of [...map].sort((a, b) => b[1].size - a[1].size).slice(0, rows))
    console.log(`${mib(size)} ${String(count).padStart(9)}  ${name.slice(0, 120)}`);
};
console.log(`${file}: ${(total / 1048576).toFixed(1)} MiB in ${nodes.length / N} nodes`);
table('\nby constructor / type (self size)', byName);
table('\nplain objects by their first property names (self size)', byShape);
table('\nstrings by their first 40 characters (self size)', byText);
