import type { ConfigurationType, Image, Lesson, PresentationType } from '@antidote/curriculum';

/** One endpoint as the builders need it (a `LiveEndpoint` of `@antidote/data` fits). */
export interface EndpointInput {
  /** The endpoint name of the lesson (the Kubernetes names derive from it). */
  name: string;
  /** Image slug (looked up in `LessonObjectsInput.images`); ignored for the jupyter guide. */
  image: string;
  /**
   * The Jupyter lab guide endpoint: image `config.images.jupyter`, `untrusted` flavor, no connections.
   * An explicit flag — never inferred from an image name containing "jupyter" (§9 item 13).
   */
  jupyterGuide?: boolean;
  /** Presentation ports then additional ports, de-duplicated (see `endpointPorts` of `@antidote/curriculum`). */
  ports: readonly number[];
  /** `hepDomain`: the Ingress host as the live lesson's row has it (else derived from the namespace). */
  presentations: readonly { name: string; port: number; type: PresentationType; hepDomain?: string }[];
  configurationType: ConfigurationType;
  /** Base name of the configuration file (reference: the same name in every `stage<N>/configs/`). */
  configurationFile: string;
  /** Per stage, the configuration file relative to the lesson directory (curriculum ingest); wins when present. */
  configurationFiles?: Readonly<Record<number, string>>;
  /** The endpoint's Service ClusterIP: configuration jobs connect to it. */
  host?: string;
}

/** What the builders of one live lesson's objects take (plus `AntidoteConfig`). */
export interface LessonObjectsInput {
  instanceId: string;
  liveLessonId: string;
  sessionId: string;
  lessonSlug: string;
  createdAt: Date;
  lesson: Pick<Lesson, 'lessonDir' | 'connections'>;
  /** Images of the endpoints, by slug. */
  images: ReadonlyMap<string, Image>;
  /** The jupyter guide's Ingress host as the row has it (else derived from the namespace). */
  guideDomain?: string;
  /** In creation order (lesson order; the jupyter guide last): host-local IPAM hands out IPs in this order. */
  endpoints: readonly EndpointInput[];
}
