import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from './api/request.js';
import type { Faults } from './faults.js';
import type { KubeSim } from './kube-sim.js';

const json = (response: ServerResponse, code: number, body: unknown): void => {
  response.writeHead(code, { 'Content-Type': 'application/json' });
  response.end(`${JSON.stringify(body, null, 2)}\n`);
};

/**
 * `/_sim/…`: the simulator's own controls, beside the Kubernetes API on the same port.
 * GET/PATCH faults, drop watches, compact history, outage, counters, request log, stats, nodes' image caches,
 * endpoints (boot stage and connections of each answering pod and Service, `?namespace=`).
 */
export async function handleAdmin(sim: KubeSim, request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
  const route = `${request.method} ${path}`;
  switch (route) {
    case 'GET /_sim/faults':
      return json(response, 200, sim.faults);
    case 'PATCH /_sim/faults':
    case 'PUT /_sim/faults': {
      const body = JSON.parse((await readBody(request)) || '{}') as Partial<Faults>;
      sim.setFaults(body);
      return json(response, 200, sim.faults);
    }
    case 'POST /_sim/faults/reset':
      sim.resetFaults();
      return json(response, 200, sim.faults);
    case 'POST /_sim/watches/drop':
      return json(response, 200, { dropped: sim.dropWatches() });
    case 'POST /_sim/history/compact':
      sim.compactHistory();
      return json(response, 200, { oldestResourceVersion: sim.store.oldestVersion });
    case 'POST /_sim/outage': {
      const { ms } = JSON.parse((await readBody(request)) || '{}') as { ms?: number };
      sim.outage(ms ?? 30_000);
      return json(response, 200, { until: new Date(sim.faults.outageUntil).toISOString() });
    }
    case 'GET /_sim/counters':
      return json(response, 200, sim.counters.snapshot());
    case 'POST /_sim/counters/reset':
      sim.counters.reset();
      return json(response, 200, { reset: true });
    case 'GET /_sim/requests':
      return json(response, 200, sim.counters.requests());
    case 'GET /_sim/images':
      return json(response, 200, Object.fromEntries(sim.list('nodes').map((node) => [node.metadata.name, sim.images.imagesOn(node.metadata.name!)])));
    case 'DELETE /_sim/images':
      sim.images.clear();
      return json(response, 200, { cleared: true });
    case 'GET /_sim/stats':
      return json(response, 200, sim.stats());
    case 'GET /_sim/endpoints':
      return json(response, 200, sim.endpointReport(new URL(request.url ?? '/', 'http://kube-sim').searchParams.get('namespace') ?? undefined));
    default:
      return json(response, 404, { error: `no such admin route: ${route}` });
  }
}
