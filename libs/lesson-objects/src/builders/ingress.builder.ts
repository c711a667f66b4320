import type { AntidoteConfig } from '@antidote/config';
import type { V1Ingress } from '@kubernetes/client-node';
import { hepDomain, ingressName, JUPYTER_ENDPOINT, JUPYTER_PORT, JUPYTER_PRESENTATION } from '../naming/names.js';
import type { EndpointInput, LessonObjectsInput } from './lesson-input.js';
import { managedLabels, namespaceOf, podNameOf } from './lesson-context.js';

/** hepsDomain values of local setups, where TLS redirects are switched off (reference §3). */
const LOCAL_DOMAINS = new Set(['localhost', 'antidote-local']);

type IngressConfig = Pick<AntidoteConfig, 'hepsDomain' | 'kubernetes' | 'network'>;

/**
 * A `networking.k8s.io/v1` Ingress for one http presentation: host = its HEP domain as the row has it
 * (a random token in place of the live lesson id; see `liveLessonRecord`), TLS with the
 * configured secret (`tlsCertName`; the original hard-coded `tls-certificate`, §9 item 12), ingress
 * class from `network.ingressClassName`, and the current `nginx.ingress.kubernetes.io/` annotations
 * (the original's `ingress.kubernetes.io/` prefix is ignored by current ingress-nginx). The
 * configuration snippet hides X-Frame-Options so the front-end can frame the page; ingress-nginx must
 * allow snippet annotations for it to apply.
 */
export function buildIngress(
  input: LessonObjectsInput,
  endpoint: Pick<EndpointInput, 'name'>,
  presentation: { name: string; port: number; hepDomain?: string },
  config: IngressConfig,
): V1Ingress {
  const namespace = namespaceOf(input);
  const host = presentation.hepDomain || hepDomain(namespace, endpoint.name, presentation.name, config.hepsDomain);
  const redirect = LOCAL_DOMAINS.has(config.hepsDomain) ? 'false' : 'true';
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: {
      name: ingressName(endpoint.name, presentation.name),
      namespace,
      labels: managedLabels(),
      annotations: {
        'nginx.ingress.kubernetes.io/ssl-redirect': redirect,
        'nginx.ingress.kubernetes.io/force-ssl-redirect': redirect,
        'nginx.ingress.kubernetes.io/configuration-snippet': 'proxy_hide_header X-Frame-Options;',
      },
    },
    spec: {
      ...(config.network.ingressClassName ? { ingressClassName: config.network.ingressClassName } : {}),
      tls: [{ hosts: [host], secretName: config.kubernetes.tlsCertName }],
      rules: [
        {
          host,
          http: {
            paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: podNameOf(endpoint), port: { number: presentation.port } } } }],
          },
        },
      ],
    },
  };
}

/** The Ingresses of an endpoint: one per `http` presentation; the jupyter guide gets `jupyterlabguide-web` on 8888. */
export function buildEndpointIngresses(input: LessonObjectsInput, endpoint: EndpointInput, config: IngressConfig): V1Ingress[] {
  if (endpoint.jupyterGuide) {
    return [buildIngress(input, { name: JUPYTER_ENDPOINT }, { name: JUPYTER_PRESENTATION, port: JUPYTER_PORT, hepDomain: input.guideDomain }, config)];
  }
  return endpoint.presentations
    .filter((presentation) => presentation.type === 'http')
    .map((presentation) => buildIngress(input, endpoint, presentation, config));
}
