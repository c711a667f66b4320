/**
 * What the test platforms need of a Kubernetes cluster they do not start themselves: tools/kube-sim
 * implements it (`startKubeSim`, structurally) and the test names the implementation, so this lib never
 * imports a tool.
 */

/** An object as a Kubernetes API holds it: what the platforms seed and the tests read back. */
export interface ClusterObject {
  apiVersion?: string;
  kind?: string;
  metadata: { name?: string; namespace?: string; labels?: Record<string, string>; deletionTimestamp?: string; [key: string]: unknown };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A running simulated cluster. */
export interface SimulatedCluster {
  stop(): Promise<void>;
}

/** The faults every in-process platform sets (short, so lessons start quickly); a simulator has others. */
export interface PlatformFaults {
  podStartDelayMs?: number;
  jobRunDelayMs?: number;
}

/** Starts a simulated Kubernetes API writing a kubeconfig to `kubeconfigPath`, holding `objects` (`startKubeSim`). */
export type ClusterSimulator<S extends SimulatedCluster, F extends PlatformFaults> = (options: {
  kubeconfigPath: string;
  faults: Partial<F>;
  objects: ClusterObject[];
}) => Promise<S>;

export interface KubeRestReply {
  code: number;
  body: ClusterObject & { items?: ClusterObject[]; message?: string };
}

/** Plain REST calls to a Kubernetes API as one identity (`kubeRest` here; `KubeApi` of tools/kube-sim has the same). */
export interface KubeRest {
  /** One call; the body is sent as JSON (`contentType`: e.g. a merge patch's). */
  call(method: string, path: string, body?: unknown, contentType?: string): Promise<KubeRestReply>;
  /** Like `call`, throwing on any status outside 2xx (or `allowed`). */
  must(method: string, path: string, body?: unknown, allowed?: number[], contentType?: string): Promise<KubeRestReply>;
}
