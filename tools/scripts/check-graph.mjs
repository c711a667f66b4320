// `npm run lint:graph`: the project graph Nx computes (the one `npx nx graph` shows) has no edge from a lib
// to a tool or an app — libs sit below everything that runs (docs/architecture.md, "Layers"). The
// `@nx/enforce-module-boundaries` rule checks imports file by file; this checks what the graph itself
// holds, declared package.json dependencies included. Exits 1, naming the edges, when one is found.
import { createProjectGraphAsync } from '@nx/devkit';

const graph = await createProjectGraphAsync({ exitOnError: true });
const folderOf = (name) => graph.nodes[name]?.data.root.split('/')[0];
const upward = Object.entries(graph.dependencies).flatMap(([source, deps]) =>
  folderOf(source) === 'libs'
    ? deps.filter((dep) => graph.nodes[dep.target] && folderOf(dep.target) !== 'libs').map((dep) => `${source} -> ${dep.target} (${dep.type})`)
    : [],
);
if (upward.length > 0) {
  console.error(`lib -> tool/app edges in the project graph (a lib may depend on libs only):\n  ${upward.join('\n  ')}`);
  process.exit(1);
}
console.log(`project graph: ${Object.keys(graph.nodes).length} projects, no lib -> tool/app edge`);
