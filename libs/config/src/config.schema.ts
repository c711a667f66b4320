import { isIP } from 'node:net';
import { DNS1123_LABEL, DNS1123_LABEL_MAX, ID_LENGTH } from '@antidote/contracts';
import { z } from 'zod';
import { curriculumLimitsSchema } from './curriculum-limits.schema.js';
import { METADATA_SERVICES } from './metadata-addresses.js';
import { warmPoolsSchema } from './warm-pools.schema.js';

/**
 * The Antidote configuration file, as operators write it.
 *
 * Every key of the original `antidote-config.yml` is accepted with the original default (flat
 * `k8s*` keys and HEAD's `backendConfigs.kubernetes` block alike); keys the original did not have are
 * grouped in nested blocks. `resolveConfig` turns this raw shape into the typed `AntidoteConfig`.
 */

/** Longest instanceId for which `<instanceId>-<id>` still fits a 63-character label. */
export const MAX_INSTANCE_ID_LENGTH = DNS1123_LABEL_MAX - 1 - ID_LENGTH;

const port = z.number().int().min(0).max(65535);
const positiveSeconds = z.number().positive();
const nonNegativeInt = z.number().int().min(0);

const tier = z.enum(['prod', 'ptr', 'local']);

const kubernetesBackend = z
  .object({
    inCluster: z.boolean().optional(),
    outOfClusterConfigPath: z.string().optional(),
    /** Explicit API server URL (new): overrides in-cluster and kubeconfig. */
    server: z.string().url().optional(),
    /** Bearer token for `server` (new). */
    token: z.string().optional(),
    /** CA bundle for `server` (new); without it TLS is verified against the system roots. */
    caFile: z.string().optional(),
    insecureSkipTlsVerify: z.boolean().optional(),
    secretsNamespace: z.string().optional(),
    tlsCertName: z.string().optional(),
    pullCredName: z.string().optional(),
  })
  .strict();

const database = z
  .object({
    /** `postgres://…` selects PostgreSQL; `sqlite:<path>` or a bare path selects SQLite. */
    url: z.string().min(1).default('sqlite:.antidote/antidote.sqlite'),
    /** Connection pool size (PostgreSQL). */
    poolSize: z.number().int().min(1).max(200).default(10),
    /** Run pending migrations when an app starts (the deploy manifests run them as a Job instead). */
    migrateOnStart: z.boolean().default(true),
    /** PostgreSQL: a connection refused while the server restarts is tried again inside the request for this long (seconds); 0 = not at all. */
    connectRetrySeconds: z.number().min(0).max(600).default(3),
  })
  .strict();

const nats = z
  .object({
    /** This app's own NATS user (each app has one; see docs/security.md). One subject token: it names the app's reply inbox. */
    user: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, "_" or "-"')
      .optional(),
    /** Secret: read from the file or ANTIDOTE_NATS_PASSWORD, never logged. */
    password: z.string().optional(),
    token: z.string().optional(),
    /**
     * Development only: start without bus credentials (against a nats-server with no authorization).
     * Off by default: an app with no `nats.user`/`nats.token` refuses to start. Logged as a warning when on.
     */
    allowAnonymous: z.boolean().default(false),
    tls: z
      .object({
        caFile: z.string().optional(),
        certFile: z.string().optional(),
        keyFile: z.string().optional(),
      })
      .strict()
      .optional(),
    /** How long a request to another service may wait for its reply. */
    requestTimeoutSeconds: positiveSeconds.default(10),
  })
  .strict();

/** Per-phase limits; defaults are the original's hard-coded limits (reference §10). */
const timeouts = z
  .object({
    podRunningSeconds: positiveSeconds.default(300),
    reachabilitySeconds: positiveSeconds.default(600),
    /**
     * The longest one of the scheduler's requests to the healthchecker waits within `reachabilitySeconds`: a
     * reply lost to a NATS restart costs no more (the healthchecker's wait of the lab goes on meanwhile).
     */
    reachabilityAttemptSeconds: positiveSeconds.default(15),
    oldJobsGoneSeconds: positiveSeconds.default(60),
    configJobSeconds: positiveSeconds.default(600),
    namespaceDeleteSeconds: positiveSeconds.default(120),
    /** Any single Kubernetes API call. */
    kubeRequestSeconds: positiveSeconds.default(30),
  })
  .strict();

/** The pre-pull DaemonSet: every curriculum image on every node before a learner asks (docs/performance.md). */
const prePull = z
  .object({
    /** Keep one DaemonSet per instance whose init containers pull each curriculum image. */
    enabled: z.boolean().default(true),
    /** Its namespace (must exist); default `secretsNamespace`, the platform's own. */
    namespace: z.string().optional(),
    /** A statically linked busybox: its binary, copied into a shared volume as `true`, is the no-op each image runs. */
    helperImage: z.string().min(1).default('busybox:1.36-musl'),
    /** The DaemonSet's one long-running container. */
    pauseImage: z.string().min(1).default('registry.k8s.io/pause:3.9'),
    /** How often the scheduler compares the curriculum's images with the DaemonSet, and logs its state (seconds). */
    resyncSeconds: positiveSeconds.default(60),
  })
  .strict();

const scheduler = z
  .object({
    /** Live lessons provisioned in parallel; the rest wait in arrival order. */
    maxConcurrentOperations: z.number().int().min(1).default(16),
    /**
     * Live lesson operations a scheduler holds at once (each with its lesson's plan and objects, waiting for
     * pods and jobs); the rest wait in arrival order (deletions first), as ids. Bounds the scheduler's memory
     * during a burst; a lesson stuck waiting holds one until its timeout.
     */
    maxOperationsInFlight: z.number().int().min(1).default(256),
    /** Admission cap on live lessons in the cluster (0 = unlimited; size it to the cluster, see docs/security.md). */
    maxLiveLessons: nonNegativeInt.default(200),
    /** Keep the namespace of a failed live lesson for debugging (the reaper removes it after `gc.failedLiveLessonTTL`). */
    keepFailedLessons: z.boolean().default(false),
    /** How often the scheduler looks for accepted requests that no message reached (seconds). */
    redriveIntervalSeconds: positiveSeconds.default(15),
    /** A request older than this without progress is driven again (seconds). */
    redriveAfterSeconds: positiveSeconds.default(30),
    /**
     * A scheduler replica's hold on a live lesson it works on, renewed every fifth of it by one heartbeat;
     * another replica takes the work over within a second of a lapse (the holder died).
     */
    claimLeaseSeconds: positiveSeconds.default(5),
    /**
     * The name this replica's claims carry: a scheduler restarted under the same name resumes its own work
     * at once. Default: the pod name (the host name) in a cluster; elsewhere host, pid and a random suffix
     * (two processes must never share a name).
     */
    replicaName: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,100}$/, 'must be 1-100 letters, digits, ".", "_" or "-"')
      .optional(),
    /** Attempts for a Kubernetes call answered 429/5xx or not at all, with exponential backoff and jitter. */
    kubeRetries: nonNegativeInt.default(6),
    /** A retryable Kubernetes call is retried for at least this long (seconds): an API outage this long is ridden out. */
    kubeRetrySeconds: nonNegativeInt.default(60),
    /** Configuration job `backoffLimit`: a job fails after 1 + this many failed pods. */
    configJobBackoffLimit: nonNegativeInt.default(3),
    prePull: prePull.default(prePull.parse({})),
    /** How often the scheduler tops up, recycles and trims the warm pools (`warmPools`), besides after each claim (seconds). */
    poolIntervalSeconds: positiveSeconds.default(10),
    /**
     * Members all warm pools may hold together, split between adaptive pools in proportion to their need
     * (fixed-size pools take theirs first). Default: a quarter of `maxLiveLessons` (unlimited when that is 0).
     */
    poolBudget: nonNegativeInt.optional(),
    /** The recent demand (claims and misses) an adaptive pool is sized from: this many seconds back. */
    poolDemandWindowSeconds: positiveSeconds.default(600),
    /** Requests waiting for capacity once `maxLiveLessons` is reached (the waiting room); past it, 429 with Retry-After (0 = no waiting room). */
    maxQueued: nonNegativeInt.default(500),
    /** A waiting request nobody has asked about (page polling, event stream, keep-alive) for this long is dropped (seconds). */
    queueAbandonSeconds: positiveSeconds.default(300),
    /** How often each scheduler admits waiting requests into freed capacity, besides right after each deletion (seconds). */
    admissionIntervalSeconds: positiveSeconds.default(2),
  })
  .strict();

const images = z
  .object({
    /** Configuration job image; default `<imageOrg>/configurator:<imageVersion>`. */
    configurator: z.string().optional(),
    /** Jupyter lab guide image; default `<imageOrg>/jupyter:<imageVersion>`. */
    jupyter: z.string().optional(),
    /** Init container copying the lesson files into the pod. */
    copier: z.string().default('bash'),
    /** Tag of the platform images (the original's build version). */
    imageVersion: z.string().default('latest'),
  })
  .strict();

/** Each lesson namespace's ResourceQuota; raised where a lesson needs more (its endpoint pods plus its configuration job pods). */
const quota = z
  .object({
    enabled: z.boolean().default(true),
    pods: z.number().int().min(1).default(20),
    requestsCpu: z.string().default('4'),
    requestsMemory: z.string().default('8Gi'),
    limitsCpu: z.string().default('8'),
    limitsMemory: z.string().default('16Gi'),
  })
  .strict();

const limitRange = z
  .object({
    enabled: z.boolean().default(true),
    defaultCpu: z.string().default('1'),
    defaultMemory: z.string().default('1Gi'),
    defaultRequestCpu: z.string().default('100m'),
    defaultRequestMemory: z.string().default('128Mi'),
  })
  .strict();

/** Requests and limits of one container (Kubernetes quantities). */
const containerResources = (defaults: { requestsCpu: string; requestsMemory: string; limitsCpu: string; limitsMemory: string }) =>
  z
    .object({
      requestsCpu: z.string().default(defaults.requestsCpu),
      requestsMemory: z.string().default(defaults.requestsMemory),
      limitsCpu: z.string().default(defaults.limitsCpu),
      limitsMemory: z.string().default(defaults.limitsMemory),
    })
    .strict();

const endpointResources = containerResources({ requestsCpu: '100m', requestsMemory: '256Mi', limitsCpu: '2', limitsMemory: '2Gi' });
const configuratorResources = containerResources({ requestsCpu: '50m', requestsMemory: '64Mi', limitsCpu: '1', limitsMemory: '512Mi' });
const copierResources = containerResources({ requestsCpu: '50m', requestsMemory: '32Mi', limitsCpu: '500m', limitsMemory: '128Mi' });

/** Lesson pods (new): the original set no resources (§9 item 25) and hard-coded the `kata` runtime. */
const pods = z
  .object({
    /** RuntimeClass of `untrusted` images and the jupyter guide; empty = the cluster's default runtime. */
    untrustedRuntimeClass: z.string().default('kata'),
    /**
     * Images allowed to run `flavor: trusted` (privileged, the default runtime): names or globs, matched
     * against an image's slug and `<imageOrg>/<slug>`. The operator's call, not the curriculum's: a
     * curriculum asking it for another image is refused at validation, and such a pod runs unprivileged
     * with `untrustedRuntimeClass`. Default: none.
     */
    trustedImages: z.array(z.string().min(1)).default([]),
    /** Endpoint containers (and the jupyter guide). Must fit `quota` for a lesson's endpoints plus its configuration jobs. */
    endpointResources: endpointResources.default(endpointResources.parse({})),
    /** The configuration job container. */
    configuratorResources: configuratorResources.default(configuratorResources.parse({})),
    /** The init container that copies the lesson files. */
    copierResources: copierResources.default(copierResources.parse({})),
  })
  .strict();

const network = z
  .object({
    /** Cluster DNS (the only DNS egress allowed from lesson pods). */
    dnsNamespace: z.string().default('kube-system'),
    dnsPodLabels: z.record(z.string(), z.string()).default({ 'k8s-app': 'kube-dns' }),
    /** Addresses lesson pods may never reach with `allowEgress` (the cloud metadata services, IPv4 and IPv6, and IPv6 link-local). */
    blockedCidrs: z.array(z.string()).default([...METADATA_SERVICES.map(({ cidr }) => cidr), 'fe80::/10']),
    /** Namespaces allowed to reach lesson pods (ingress controller, the platform's own). */
    ingressFromNamespaces: z.array(z.string()).default(['ingress-nginx', 'antidote']),
    /** `spec.ingressClassName` of lesson Ingresses (the original used the legacy `ingress.class` annotation). */
    ingressClassName: z.string().default('nginx'),
  })
  .strict();

const gc = z
  .object({
    /** Seconds between reaper passes. */
    intervalSeconds: positiveSeconds.default(60),
    /** Minutes a failed live lesson kept for debugging lives. */
    failedLiveLessonTTL: z.number().min(0).default(60),
    /** Seconds a managed namespace without a record is left alone (it may be being created). */
    orphanGraceSeconds: z.number().min(0).default(300),
    /** Seconds in Terminating before a namespace is reported stuck. */
    stuckTerminatingSeconds: z.number().min(0).default(600),
    /** Remove the finalizers of stuck namespaces' contents (off: report only). */
    removeStuckFinalizers: z.boolean().default(false),
    /** Page size for the namespace list. */
    listPageSize: z.number().int().min(1).max(5000).default(500),
    /** Lease used for leader election between reaper replicas. */
    leaseName: z.string().optional(),
    leaseNamespace: z.string().optional(),
    leaseDurationSeconds: positiveSeconds.default(15),
  })
  .strict();

const healthcheck = z
  .object({
    /**
     * Bound of one whole probe (connect, handshake, login, response). While a lesson waits for an endpoint,
     * each round that does not find it up doubles the next probe's bound, up to 16 × this (a slow handshake
     * on a loaded node is not timed out forever).
     */
    probeTimeoutMs: z.number().int().min(1).default(2000),
    /**
     * Longest pause between rounds while waiting for an endpoint (reference §7: 1 s). A pause is an eighth of
     * the time the endpoint has been waited for, at least 100 ms, up to this.
     */
    intervalMs: z.number().int().min(1).default(1000),
    /** Open probes at once, over all requests. */
    maxConcurrentProbes: z.number().int().min(1).default(256),
    /** HTTP responses with a status below this count as reachable. */
    httpHealthyBelow: z.number().int().min(100).max(600).default(500),
    /**
     * Bound of one readiness pattern match (on a thread of its own, never the event loop): past it the
     * match ends as too slow, and that pattern is not run again for a minute.
     */
    readinessMatchTimeoutMs: z.number().int().min(1).default(1000),
    /**
     * The only addresses probed: the cluster's pod and service ranges (CIDRs). The defaults cover the
     * private ranges clusters use (kubeadm, k3s, EKS, GKE, AKS, Calico) and loopback (kube-sim);
     * link-local addresses and the cloud metadata services (`METADATA_SERVICES`: 100.100.100.200 in
     * 100.64.0.0/10, fd00:ec2::254 in fd00::/8, 168.63.129.16, …) are refused whatever this says.
     * Narrow it to your cluster's.
     */
    probeRanges: z.array(z.string()).default(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '127.0.0.0/8', 'fd00::/8']),
  })
  .strict();

/** `*`, or an origin as a browser sends it: `http(s)://host[:port]`, no path. */
const isOriginOrAny = (value: string): boolean => {
  if (value === '*') return true;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value.replace(/\/+$/, '').toLowerCase();
  } catch {
    return false;
  }
};
const corsOrigin = z.string().refine(isOriginOrAny, 'an origin: scheme://host[:port] with no path, or *');
/** `*`, a host name (`.example.org` or `*.example.org`: its subdomains) or an address: no scheme, port or path. */
const allowedHost = z
  .string()
  .refine(
    (value) => value === '*' || isIP(value.replace(/^\[(.*)\]$/, '$1')) !== 0 || /^(\*?\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$/i.test(value),
    'a host name (.example.org for its subdomains), an address, or *',
  );

/** A token bucket per client address: up to `count` at once, refilled continuously over `perSeconds` (count 0 = unlimited). */
const perAddress = (count: number, perSeconds: number) =>
  z
    .object({ count: nonNegativeInt.default(count), perSeconds: positiveSeconds.default(perSeconds) })
    .strict()
    .default({ count, perSeconds });

const api = z
  .object({
    /** Address the api listens on: loopback unless set (the manifests set 0.0.0.0 inside the pod). */
    host: z.string().default('127.0.0.1'),
    /** Proxies (addresses or CIDRs) whose `x-forwarded-for`, `-host` and `-proto` are believed, walking the first from the right. */
    trustedProxies: z.array(z.string()).default(['127.0.0.1/8', '::1/128']),
    /**
     * Other origins allowed to call `/exp` from a browser (CORS) and to write there; none by default (the
     * api's own origin always may). `*` allows any web page to create and delete labs: logged as INSECURE.
     */
    corsOrigins: z.array(corsOrigin).default([]),
    /**
     * Host names the api answers to besides the addresses it listens on, `localhost` names and what a
     * trusted proxy sends as X-Forwarded-Host (`.example.org` = its subdomains; `*` = any: INSECURE).
     * Another Host is refused 403 (DNS rebinding).
     */
    allowedHosts: z.array(allowedHost).default([]),
    /** Requests being answered at once over all clients, counted once their body is in; past it, 503 (0 = unlimited). */
    maxInFlightRequests: nonNegativeInt.default(512),
    /** Requests in flight per client (body being received included); past it, 429 (0 = unlimited). */
    maxInFlightPerClient: nonNegativeInt.default(32),
    /**
     * Connections the kernel holds for the api before it accepts them (the listen backlog, capped by the
     * machine's `net.core.somaxconn`): a crowd arriving at once waits there to be answered (a 503 past
     * `maxInFlightRequests`) instead of having its connections reset.
     */
    listenBacklog: z.number().int().min(1).default(4096),
    /** IPv6 clients are grouped by this prefix for every per-client limit (a host usually holds a whole /64). */
    ipv6ClientPrefix: z.number().int().min(1).max(128).default(64),
    /** A client must send its request headers within this long… */
    headersTimeoutSeconds: z.number().int().min(1).default(10),
    /** …and the whole request (headers and body) within this long; else 408 and the connection is closed. */
    requestTimeoutSeconds: z.number().int().min(1).default(30),
    /** Open `/exp/livelesson/{id}/events` streams per client address; past it, 429 (0 = unlimited). Sized for a classroom behind one address (30 learners, 3 labs each). */
    maxStreamsPerClient: nonNegativeInt.default(100),
    /** Every open event stream re-reads its lab's row this often (and when NATS comes back), and sends it if it changed unseen (seconds). */
    eventResyncSeconds: positiveSeconds.default(15),
    /**
     * Device passwords in live lesson answers to anyone holding the lab id (the page's terminal does not
     * need them: the api logs in itself). Off: only the admin token reads them. On is logged as INSECURE.
     */
    exposeDevicePasswords: z.boolean().default(false),
    /** Bearer token of the admin routes; empty disables them. */
    adminToken: z.string().default(''),
    /** Requests per client per minute (0 = unlimited). Sized for a classroom behind one address (30 pages polling each second, and more). */
    rateLimitPerMinute: nonNegativeInt.default(3000),
    /** New sessions per client address (a classroom behind one NAT address: 60 per 10 min). */
    newSessionsPerAddress: perAddress(60, 600),
    /** New labs per client address (a stage change or keep-alive of a lab is not a new one). */
    newLabsPerAddress: perAddress(120, 600),
    /** Largest accepted request body. */
    maxBodyBytes: z
      .number()
      .int()
      .min(256)
      .default(64 * 1024),
    /** The learner's web UI under `/`: its folder (empty: the `@antidote/web` app beside the api); `web.enabled: false` serves none. */
    web: z
      .object({
        enabled: z.boolean().default(true),
        root: z.string().default(''),
        /** The page stops keeping its lab alive once hidden this long (the reaper may then expire it). */
        hiddenGraceSeconds: z.number().min(0).default(300),
        /**
         * Where guide images and lesson videos may come from besides the api itself (CSP img-src and
         * media-src): `https:` (any https site, as curricula link them) or https origins; `[]` allows the api's own only.
         */
        mediaSources: z.array(z.string().regex(/^https:(\/\/(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?)?$/, 'must be "https:" or an https origin')).default(['https:']),
        /** Largest image or video the api serves from a lesson's folder. */
        lessonFileMaxBytes: z
          .number()
          .int()
          .min(1)
          .default(16 * 1024 * 1024),
      })
      .strict()
      .default({ enabled: true, root: '', hiddenGraceSeconds: 300, mediaSources: ['https:'], lessonFileMaxBytes: 16 * 1024 * 1024 }),
    /** Browser terminals (`/terminals` WebSocket): the api opens the SSH session itself; every limit is on by default. */
    terminals: z
      .object({
        /** Open terminals per learner session; past it the socket is refused (0 = terminals off). */
        maxPerSession: nonNegativeInt.default(8),
        /** A terminal with no input or output for this long is closed. */
        idleTimeoutSeconds: z.number().int().min(1).default(900),
        /** Largest WebSocket message accepted from the browser. */
        maxFrameBytes: z
          .number()
          .int()
          .min(64)
          .max(1024 * 1024)
          .default(16 * 1024),
        /** Bound of the SSH connect and login. */
        connectTimeoutMs: z.number().int().min(1).default(10_000),
        /** Origins allowed to open a terminal besides the api's own (as seen through `api.trustedProxies`); `*` is refused. */
        allowedOrigins: z.array(z.string().url()).default([]),
        /** Input frames (keys, pastes, resizes) per terminal per second; past it the api stops reading the socket until the rate allows. */
        inputFramesPerSecond: z.number().int().min(1).default(200),
        /** Input bytes per terminal per second, the same way. */
        inputBytesPerSecond: z
          .number()
          .int()
          .min(64)
          .default(64 * 1024),
      })
      .strict()
      .default({
        maxPerSession: 8,
        idleTimeoutSeconds: 900,
        maxFrameBytes: 16 * 1024,
        connectTimeoutMs: 10_000,
        allowedOrigins: [],
        inputFramesPerSecond: 200,
        inputBytesPerSecond: 64 * 1024,
      }),
  })
  .strict()
  .refine((api) => api.headersTimeoutSeconds <= api.requestTimeoutSeconds, {
    message: 'api.headersTimeoutSeconds must not exceed api.requestTimeoutSeconds',
    path: ['headersTimeoutSeconds'],
  });

const ops = z
  .object({
    /** Port of `/healthz`, `/readyz` and `/metrics` per non-HTTP app (the api serves them on httpPort). */
    schedulerPort: port.default(9101),
    healthcheckerPort: port.default(9102),
    reaperPort: port.default(9103),
    host: z.string().default('0.0.0.0'),
  })
  .strict();

const logging = z
  .object({
    level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .strict();

const tracing = z
  .object({
    exporter: z.enum(['none', 'console', 'memory', 'otlp']).default('none'),
    otlpUrl: z.string().optional(),
    sampleRatio: z.number().min(0).max(1).default(1),
  })
  .strict();

const stats = z
  .object({
    url: z.string().default(''),
    username: z.string().default(''),
    password: z.string().default(''),
  })
  .strict();

/** The file as written. Unknown keys are reported as warnings by the loader, not rejected. */
export const rawConfigSchema = z
  .object({
    instanceId: z
      .string({ error: 'InstanceID has no default and must be provided' })
      .max(MAX_INSTANCE_ID_LENGTH, {
        message: `must be at most ${MAX_INSTANCE_ID_LENGTH} characters so that "<instanceId>-<${ID_LENGTH}-char id>" fits a 63-character namespace name`,
      })
      .regex(DNS1123_LABEL, {
        message: 'must be a DNS-1123 label (lower-case letters, digits and "-", starting and ending with a letter or digit)',
      }),
    tier: tier.default('prod'),
    hepsDomain: z.string().min(1).default('localhost'),
    imageOrg: z.string().min(1).default('antidotelabs'),
    grpcPort: port.default(50099),
    httpPort: port.default(8086),
    /** Minutes without activity after which a session holding no lab is deleted (the original's key; the shorter of it and `sessionIdleTTL` applies). */
    liveSessionTTL: z.number().min(0).default(1440),
    /** Minutes without activity after which a session holding no lab is deleted (a learner who comes back gets a new one). */
    sessionIdleTTL: z.number().min(0).default(60),
    liveLessonTTL: z.number().min(0).default(30),
    /** Live sessions held per client address (0 = unlimited, the original's default; `api.newSessionsPerAddress` limits their rate instead). */
    liveSessionLimit: nonNegativeInt.default(0),
    /** Live lessons per session (0 = unlimited; the original's default was 0). */
    liveLessonLimit: nonNegativeInt.default(3),
    stats: stats.default(stats.parse({})),
    alwaysPull: z.boolean().default(false),
    allowEgress: z.boolean().default(false),
    secretsNamespace: z.string().optional(),
    tlsCertName: z.string().optional(),
    pullCredName: z.string().optional(),
    curriculumDir: z.string({ error: 'CurriculumDir has no default and must be provided' }).min(1, {
      message: 'CurriculumDir has no default and must be provided',
    }),
    curriculumVersion: z.string().min(1).default('latest'),
    curriculumLimits: curriculumLimitsSchema.default(curriculumLimitsSchema.parse({})),
    warmPools: warmPoolsSchema.default({}),
    enabledServices: z.array(z.string()).default(['scheduler', 'api', 'stats']),
    k8sInCluster: z.boolean().optional(),
    k8sOutOfClusterConfigPath: z.string().optional(),
    natsUrl: z.string().min(1).default('nats://127.0.0.1:4222'),
    devMode: z.boolean().default(false),
    backend: z.literal('kubernetes', { error: 'Unsupported backend (only "kubernetes")' }).default('kubernetes'),
    backendConfigs: z.object({ kubernetes: kubernetesBackend.optional() }).strict().optional(),
    database: database.default(database.parse({})),
    nats: nats.default(nats.parse({})),
    timeouts: timeouts.default(timeouts.parse({})),
    scheduler: scheduler.default(scheduler.parse({})),
    images: images.default(images.parse({})),
    quota: quota.default(quota.parse({})),
    limitRange: limitRange.default(limitRange.parse({})),
    pods: pods.default(pods.parse({})),
    network: network.default(network.parse({})),
    gc: gc.default(gc.parse({})),
    healthcheck: healthcheck.default(healthcheck.parse({})),
    api: api.default(api.parse({})),
    ops: ops.default(ops.parse({})),
    logging: logging.default(logging.parse({})),
    tracing: tracing.default(tracing.parse({})),
  })
  .strict();

export type RawConfig = z.infer<typeof rawConfigSchema>;
