import { dnsLabel, dnsSubdomain, shortHash } from './dns-name.js';

/** The endpoint Antidote adds for lessons with a Jupyter lab guide (reference §5.3 f). */
export const JUPYTER_ENDPOINT = 'jupyterlabguide';
export const JUPYTER_PORT = 8888;
export const JUPYTER_PRESENTATION = 'web';
/** Init container of endpoint pods and configuration jobs. */
export const COPY_CONTAINER = 'copy-local-files';
export const CONFIG_CONTAINER = 'configurator';
/** Linux interface names: IFNAMSIZ 16 including the terminating NUL. */
export const BRIDGE_NAME_MAX = 15;
const BRIDGE_PREFIX = 'ad';

/** `<instanceId>-<liveLessonId>` (reference §5.1), shortened with a hash only when it would not fit 63. */
export const namespaceName = (instanceId: string, liveLessonId: string): string => dnsLabel(`${instanceId}-${liveLessonId}`);

/**
 * Pod, container and Service name of an endpoint: the endpoint name itself when it is a DNS-1035 label
 * (the usual case, so URLs and the web terminal keep working), otherwise a deterministic valid one.
 */
export const endpointResourceName = (endpointName: string): string => dnsLabel(endpointName, { startWithLetter: true });

/** Ingress `<endpoint>-<presentation>` (jupyter: `jupyterlabguide-web`). */
export const ingressName = (endpointName: string, presentationName: string): string => dnsLabel(`${endpointName}-${presentationName}`);

/** HEP domain `<namespace>-<endpoint>-<presentation>.<hepsDomain>`; the first DNS label is kept ≤ 63. */
export const hepDomain = (namespace: string, endpointName: string, presentationName: string, hepsDomain: string): string =>
  `${dnsLabel(`${namespace}-${endpointName}-${presentationName}`)}.${hepsDomain}`;

/** Jupyter guide domain `<namespace>-jupyterlabguide-web.<hepsDomain>`. */
export const guideDomain = (namespace: string, hepsDomain: string): string => hepDomain(namespace, JUPYTER_ENDPOINT, JUPYTER_PRESENTATION, hepsDomain);

/** NetworkAttachmentDefinition `<A>-<B>-net` of one connection. */
export const nadName = (a: string, b: string): string => dnsLabel(`${a}-${b}-net`);

/**
 * NAD names of all connections of a lesson, in connection order. The reference named two links between
 * the same endpoints (or `x-y`+`z` vs `x`+`y-z`) identically, so the second create failed; here a
 * repeated name gets the connection index appended, deterministically.
 */
export function connectionNadNames(connections: readonly { a: string; b: string }[]): string[] {
  const used = new Set<string>();
  return connections.map((connection, index) => {
    let name = nadName(connection.a, connection.b);
    for (let attempt = 0; used.has(name); attempt++) {
      name = dnsLabel(`${connection.a}-${connection.b}-net-${index}${attempt > 0 ? `-${attempt}` : ''}`);
    }
    used.add(name);
    return name;
  });
}

/** CNI network name inside the NAD config: `<namespace>-<nadName>` (reference: `<namespace>-<A>-<B>-net`). */
export const cniNetworkName = (namespace: string, nad: string): string => dnsSubdomain(`${namespace}-${nad}`);

/** Configuration Job `config-<endpoint>-<stage>` (≤ 63: it is also the pods' `job-name` label). */
export const configJobName = (endpointName: string, stage: number): string => dnsLabel(`config-${endpointName}-${stage}`);

/**
 * Linux bridge of one connection: `ad` + 13 base32 characters of SHA-256(`<namespace>/<index>`) = 15
 * characters. The reference kept 6+6 characters of instanceId and live lesson id, so two lessons or
 * instances on one node could share a bridge (L2 leak, §9 item 15). The namespace embeds both ids, and
 * 65 hash bits make a clash between n bridges on a node about n²/2⁶⁶ likely.
 */
export const bridgeName = (namespace: string, connectionIndex: number): string =>
  `${BRIDGE_PREFIX}${shortHash(`${namespace}/${connectionIndex}`, BRIDGE_NAME_MAX - BRIDGE_PREFIX.length)}`;
