import type { KindBehaviour } from '../api/behaviour.js';
import { serviceExposure } from '../endpoints/endpoint-exposure.js';
import { recordEvent } from './pod.behaviour.js';
import type { SimContext } from './sim-context.js';

interface ServicePort {
  name?: string;
  port: number;
  targetPort?: number | string;
  protocol?: string;
}

/** Services get a loopback ClusterIP at once and really listen on their ports there (unless unreachable on purpose). */
export function serviceBehaviour(sim: SimContext): KindBehaviour {
  return {
    prepareCreate(service) {
      const spec: Record<string, unknown> = { type: 'ClusterIP', sessionAffinity: 'None', ...service.spec };
      const ports = ((spec.ports as ServicePort[] | undefined) ?? []).map((port) => ({ protocol: 'TCP', targetPort: port.port, ...port }));
      if (spec.clusterIP !== 'None') {
        spec.clusterIP = sim.serviceAddresses.allocate();
        spec.clusterIPs = [spec.clusterIP];
      }
      service.spec = { ...spec, ports };
      service.status = { loadBalancer: {} };
    },
    prepareUpdate(previous, next) {
      next.spec = { ...next.spec, clusterIP: previous.spec?.clusterIP, clusterIPs: previous.spec?.clusterIPs };
    },
    created(service) {
      // A port that cannot be opened is told in a Warning Event on the Service (kube-proxy's own failures show there too).
      void sim.endpoints.open(service, serviceExposure(service)).then((failures) => {
        if (failures.length > 0)
          recordEvent(sim, service, 'FailedToListen', `cannot open the Service's ports: ${failures.join('; ')}`, 'Warning', 'kube-proxy');
      });
    },
    deleted(service) {
      sim.endpoints.close(service);
      const address = service.spec?.clusterIP as string | undefined;
      if (address && address !== 'None') sim.serviceAddresses.release(address);
    },
  };
}
