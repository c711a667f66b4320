import type { KubeApi } from '@antidote/kube-sim';
import { expect } from 'vitest';

export interface ExpResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
}

export interface ExpLiveLesson {
  ID: string;
  Status: string;
  CurrentStage: number;
  GuideContents: string;
  LiveEndpoints: Record<string, { Host: string }>;
  PhaseTimes: Record<string, unknown>;
}

/** The gateway error shape of every 4xx/5xx answer. */
export interface GatewayErrorBody {
  error: string;
  code: number;
  message: string;
}

/**
 * The original /exp REST API over plain fetch, as a browser behind a proxy calls it: `ip` goes in
 * `x-forwarded-for` (the api trusts loopback peers), so each test is a learner of its own for the
 * per-IP limits.
 */
export function expClient(api: string, ip: string, adminToken?: string) {
  const call = async <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ExpResponse<T>> => {
    const response = await fetch(`${api}${path}`, {
      method,
      headers: { 'x-forwarded-for': ip, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as T };
  };

  const client = {
    call,
    get: <T = Record<string, unknown>>(path: string) => call<T>('GET', path),
    post: <T = Record<string, unknown>>(path: string, body: unknown) => call<T>('POST', path, body),
    delete: <T = Record<string, unknown>>(path: string) => call<T>('DELETE', path),

    async newSession(options: { persistent?: boolean } = {}): Promise<string> {
      const session = await call<{ ID: string }>('POST', '/exp/livesession', {});
      expect(session.status).toBe(200);
      if (options.persistent) {
        const persisted = await call(
          'PUT',
          `/exp/admin/livesession/${session.body.ID}/persistence`,
          { persistent: true },
          { authorization: `Bearer ${adminToken}` },
        );
        expect(persisted).toMatchObject({ status: 200, body: { Persistent: true } });
      }
      return session.body.ID;
    },

    async requestLesson(sessionId: string, lessonSlug: string, lessonStage = 0): Promise<string> {
      const requested = await call<{ id: string }>('POST', '/exp/livelesson', { sessionId, lessonSlug, lessonStage });
      expect(requested.status, JSON.stringify(requested.body)).toBe(200);
      return requested.body.id;
    },

    /** Polls GET /exp/livelesson/{id} until it is READY at `stage` (a failure shows as its last answer). */
    async waitUntilReady(id: string, stage = 0, timeout = 90_000): Promise<ExpLiveLesson> {
      let last: ExpResponse<ExpLiveLesson> | undefined;
      await expect
        .poll(
          async () => {
            last = await call<ExpLiveLesson>('GET', `/exp/livelesson/${id}`);
            if (last.status !== 200) return `HTTP ${last.status} ${JSON.stringify(last.body)}`;
            return `${last.body.Status} at stage ${last.body.CurrentStage}`;
          },
          { timeout, interval: 250 },
        )
        .toBe(`READY at stage ${stage}`);
      return last!.body;
    },
  };
  return client;
}

/** Namespace state as kube-sim (the Kubernetes API) reports it: 200 while it exists, 404 once gone. */
export const namespaceStatus = async (kubeSim: KubeApi, namespace: string): Promise<number> =>
  (await kubeSim.call('GET', `/api/v1/namespaces/${namespace}`)).code;

/** Deletes a namespace as someone outside Antidote would (kubectl delete namespace). */
export const deleteNamespace = async (kubeSim: KubeApi, namespace: string): Promise<number> =>
  (await kubeSim.call('DELETE', `/api/v1/namespaces/${namespace}`)).code;

/** Changes kube-sim's faults at run time (PATCH /_sim/faults): only the fields given change. */
export async function setSimFaults(kubeSim: KubeApi, faults: Record<string, unknown>): Promise<void> {
  const response = await kubeSim.call('PATCH', '/_sim/faults', faults);
  if (response.code !== 200) throw new Error(`kube-sim refused the faults ${JSON.stringify(faults)}: HTTP ${response.code}`);
}

/** One call in kube-sim's request log (GET /_sim/requests), as the RBAC check and the benchmark read it. */
export interface SimRequest {
  /** When kube-sim answered it (ISO). */
  at?: string;
  userAgent: string;
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  code: number;
}

/** kube-sim's request log: every Kubernetes call so far, with who made it. */
export async function simRequests(kubeSim: KubeApi): Promise<SimRequest[]> {
  const response = await kubeSim.call('GET', '/_sim/requests');
  if (response.code !== 200) throw new Error(`kube-sim did not give its request log: HTTP ${response.code}`);
  return response.body as unknown as SimRequest[];
}

/** One answering pod or Service of kube-sim (GET /_sim/endpoints): its boot stage and the connections it accepted, by port and stage. */
export interface SimEndpoint {
  kind: string;
  name: string;
  image?: string;
  stage: string;
  boot?: { pattern: string; startedAt: number; portMs: number; loginMs: number; cliMs: number; rebootMs?: number };
  connections: Record<string, Partial<Record<'down' | 'login' | 'booting' | 'ready', { count: number; firstAt: number; lastAt: number }>>>;
}

/** kube-sim's answering pods and Services of a namespace. */
export async function simEndpoints(kubeSim: KubeApi, namespace: string): Promise<SimEndpoint[]> {
  const response = await kubeSim.call('GET', `/_sim/endpoints?namespace=${encodeURIComponent(namespace)}`);
  if (response.code !== 200) throw new Error(`kube-sim did not list its endpoints: HTTP ${response.code}`);
  return response.body as unknown as SimEndpoint[];
}

/**
 * The connections an endpoint accepted, over its ports: while its device booted, and once it was up — its
 * CLI answering where `upAtCli` (an image with a readiness check), else its logins working.
 */
export function connectionsOf(endpoint: SimEndpoint, upAtCli: boolean): { booting: number; up: number } {
  const stages = Object.values(endpoint.connections);
  const count = (stage: keyof SimEndpoint['connections'][string]) => stages.reduce((sum, byStage) => sum + (byStage[stage]?.count ?? 0), 0);
  return upAtCli
    ? { booting: count('down') + count('login') + count('booting'), up: count('ready') }
    : { booting: count('down') + count('login'), up: count('booting') + count('ready') };
}
