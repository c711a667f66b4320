import type { V1Secret } from '@kubernetes/client-node';
import type { Lesson } from '@antidote/curriculum';
import { describe, expect, it } from 'vitest';
import { kubeSchemaProblems } from '../../test/kube-schema.js';
import { image, testConfig, triangleLesson } from '../../test/lesson-fixture.js';
import { JUPYTER_ENDPOINT } from '../naming/names.js';
import { buildEndpointIngresses, buildIngress } from './ingress.builder.js';
import { liveLessonRecord } from './live-lesson-record.js';
import { buildLimitRange } from './limit-range.builder.js';
import { buildNamespace } from './namespace.builder.js';
import { buildNetworkAttachments } from './network-attachment.builder.js';
import { buildResourceQuota } from './resource-quota.builder.js';
import { copySecret } from './secret.builder.js';
import { buildService } from './service.builder.js';

const input = triangleLesson();
const config = testConfig();

describe('buildNamespace', () => {
  it('carries the §5.1 labels', () => {
    const namespace = buildNamespace(input);
    expect(namespace.metadata?.labels).toEqual({
      name: 'antidote-testing-abcdef1234',
      liveLesson: 'abcdef1234',
      liveSession: 'sess000001',
      lessonSlug: 'network-triangle',
      antidoteManaged: 'yes',
      antidoteId: 'antidote-testing',
      lastAccessed: '1704164645',
      created: '1704164645',
    });
    expect(kubeSchemaProblems(namespace)).toEqual([]);
  });

  it('keeps label values valid for long session ids and slugs', () => {
    const namespace = buildNamespace(triangleLesson({ sessionId: 's'.repeat(64), lessonSlug: 'a-'.repeat(60) + 'z' }));
    expect(kubeSchemaProblems(namespace)).toEqual([]);
  });
});

describe('buildService', () => {
  it('selects the endpoint pod and exposes port-<n> for each port', () => {
    const service = buildService(input, input.endpoints[2]);
    expect(service.metadata?.labels).toEqual({ liveLesson: 'abcdef1234', liveSession: 'sess000001', antidoteManaged: 'yes' });
    expect(service.spec?.selector).toEqual({ liveLesson: 'abcdef1234', liveSession: 'sess000001', podName: 'vqfx3' });
    expect(service.spec?.ports).toEqual([
      { name: 'port-22', port: 22, targetPort: 22, protocol: 'TCP' },
      { name: 'port-8080', port: 8080, targetPort: 8080, protocol: 'TCP' },
    ]);
    expect(kubeSchemaProblems(service)).toEqual([]);
  });
});

describe('buildIngress', () => {
  it('routes the HEP domain to the service with the configured TLS secret and class', () => {
    const ingress = buildIngress(input, input.endpoints[2], { name: 'web', port: 8080 }, testConfig({ tlsCertName: 'heps-tls' }));
    expect(ingress.apiVersion).toBe('networking.k8s.io/v1');
    expect(ingress.metadata?.name).toBe('vqfx3-web');
    expect(ingress.spec?.ingressClassName).toBe('nginx');
    expect(ingress.spec?.tls).toEqual([{ hosts: ['antidote-testing-abcdef1234-vqfx3-web.heps.example.org'], secretName: 'heps-tls' }]);
    expect(ingress.spec?.rules?.[0].http?.paths[0]).toEqual({
      path: '/',
      pathType: 'Prefix',
      backend: { service: { name: 'vqfx3', port: { number: 8080 } } },
    });
    expect(ingress.metadata?.annotations?.['nginx.ingress.kubernetes.io/ssl-redirect']).toBe('true');
    expect(ingress.metadata?.annotations?.['nginx.ingress.kubernetes.io/configuration-snippet']).toBe('proxy_hide_header X-Frame-Options;');
    expect(kubeSchemaProblems(ingress)).toEqual([]);
  });

  it('switches TLS redirects off for local domains', () => {
    const ingress = buildIngress(input, input.endpoints[2], { name: 'web', port: 8080 }, testConfig({ hepsDomain: 'localhost' }));
    expect(ingress.metadata?.annotations?.['nginx.ingress.kubernetes.io/force-ssl-redirect']).toBe('false');
  });

  it('gives the jupyter guide jupyterlabguide-web on port 8888', () => {
    const [ingress] = buildEndpointIngresses(
      input,
      { name: JUPYTER_ENDPOINT, image: '', jupyterGuide: true, ports: [8888], presentations: [], configurationType: '', configurationFile: '' },
      config,
    );
    expect(ingress.metadata?.name).toBe('jupyterlabguide-web');
    expect(ingress.spec?.rules?.[0].host).toBe('antidote-testing-abcdef1234-jupyterlabguide-web.heps.example.org');
    expect(ingress.spec?.rules?.[0].http?.paths[0].backend.service).toEqual({ name: 'jupyterlabguide', port: { number: 8888 } });
  });

  it('takes the hosts the row has (a random token, not the live lesson id) for presentations and the guide', () => {
    const web = buildIngress(input, input.endpoints[2], { name: 'web', port: 8080, hepDomain: 'antidote-testing-tok3n-linux1-web.heps.example.org' }, config);
    expect(web.spec?.rules?.[0].host).toBe('antidote-testing-tok3n-linux1-web.heps.example.org');
    expect(web.spec?.tls?.[0].hosts).toEqual(['antidote-testing-tok3n-linux1-web.heps.example.org']);
    const [guide] = buildEndpointIngresses(
      { ...input, guideDomain: 'antidote-testing-tok3n-jupyterlabguide-web.heps.example.org' },
      { name: JUPYTER_ENDPOINT, image: '', jupyterGuide: true, ports: [8888], presentations: [], configurationType: '', configurationFile: '' },
      config,
    );
    expect(guide.spec?.rules?.[0].host).toBe('antidote-testing-tok3n-jupyterlabguide-web.heps.example.org');
  });
});

describe('liveLessonRecord', () => {
  // Only what liveLessonRecord reads.
  const lesson = {
    slug: 'web-lesson',
    stages: [{ description: '', guideType: 'markdown', guideContents: '# hi', stageVideo: '' }],
    endpoints: [
      {
        name: 'linux1',
        image: 'utility',
        presentations: [{ name: 'web', port: 80, type: 'http' }],
        additionalPorts: [],
        configurationType: '',
        configurationFile: '',
      },
    ],
  } as unknown as Lesson;
  const record = (hostToken?: string) =>
    liveLessonRecord(lesson, {
      id: 'abcdef1234',
      sessionId: 's',
      instanceId: 'antidote-testing',
      hepsDomain: 'heps.example.org',
      stage: 0,
      hostToken,
      imageOf: () => image('utility'),
    });

  it('puts the host token, never the live lesson id, in every public hostname', () => {
    const withToken = record('h0st0ken0000000a');
    const hosts = [withToken.guideDomain, ...withToken.endpoints.flatMap((endpoint) => endpoint.presentations.map((p) => p.hepDomain))];
    expect(hosts).toHaveLength(2);
    for (const host of hosts) expect(host).toMatch(/^antidote-testing-h0st0ken0000000a-[a-z0-9-]+\.heps\.example\.org$/);
    expect(hosts.join(' ')).not.toContain('abcdef1234');
  });

  it('keeps the original format (the namespace) without a token', () => {
    expect(record().guideDomain).toBe('antidote-testing-abcdef1234-jupyterlabguide-web.heps.example.org');
  });

  it("copies the image's readiness check to its endpoints, and none when the image declares none", () => {
    const readiness = { type: 'ssh', command: 'show version', match: 'Model' } as const;
    const withCheck = liveLessonRecord(lesson, {
      id: 'abcdef1234',
      sessionId: 's',
      instanceId: 'antidote-testing',
      hepsDomain: 'heps.example.org',
      stage: 0,
      imageOf: () => ({ ...image('utility'), readiness }),
    });
    expect(withCheck.endpoints[0].readiness).toEqual(readiness);
    expect(record().endpoints[0]).not.toHaveProperty('readiness');
  });
});

describe('buildNetworkAttachments', () => {
  const nads = buildNetworkAttachments(input);

  it('writes a bridge CNI config per connection with distinct ≤ 15-character bridges', () => {
    const configs = nads.map((nad) => JSON.parse(nad.spec.config) as Record<string, unknown>);
    expect(configs[0]).toEqual({
      cniVersion: '0.3.1',
      name: 'antidote-testing-abcdef1234-vqfx1-vqfx2-net',
      type: 'bridge',
      plugin: 'bridge',
      bridge: configs[0].bridge,
      forceAddress: false,
      hairpinMode: false,
      delegate: { hairpinMode: false },
      ipam: { type: 'host-local', subnet: '10.12.0.0/24' },
    });
    expect(configs[1].ipam).toEqual({ type: 'host-local', subnet: '169.0.0.0/16' });
    const bridges = configs.map((c) => c.bridge as string);
    expect(new Set(bridges).size).toBe(3);
    for (const bridge of bridges) expect(bridge.length).toBeLessThanOrEqual(15);
    expect(nads[0].metadata.labels).toEqual({ antidoteManaged: 'yes' });
    expect(nads[0].apiVersion).toBe('k8s.cni.cncf.io/v1');
  });
});

describe('copySecret', () => {
  it('copies name, type and data into the lesson namespace, dropping server fields', () => {
    const source: V1Secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'docker-pull-creds', namespace: 'prod', uid: 'u-1', resourceVersion: '42', labels: { team: 'x' } },
      type: 'kubernetes.io/dockerconfigjson',
      data: { '.dockerconfigjson': 'e30=' },
    };
    const copy = copySecret(source, 'testns');
    expect(copy).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'docker-pull-creds', namespace: 'testns', labels: { antidoteManaged: 'yes' } },
      type: 'kubernetes.io/dockerconfigjson',
      data: { '.dockerconfigjson': 'e30=' },
    });
    expect(kubeSchemaProblems(copy)).toEqual([]);
  });
});

describe('quota and limits', () => {
  it('follow config.quota (raised to what the lesson needs) and config.limitRange', () => {
    const quota = buildResourceQuota(input, testConfig({ quota: { pods: 7, limitsMemory: '4Gi' } }));
    // The triangle's 3 endpoint pods and 3 configuration job pods need 9 cpu and 7.5Gi of limits: raised to fit.
    expect(quota?.spec?.hard).toEqual({
      pods: '7',
      'requests.cpu': '4',
      'requests.memory': '8Gi',
      'limits.cpu': '9000m',
      'limits.memory': String(7.5 * 2 ** 30),
    });
    const limits = buildLimitRange(input, config);
    expect(limits?.spec?.limits).toEqual([{ type: 'Container', default: { cpu: '1', memory: '1Gi' }, defaultRequest: { cpu: '100m', memory: '128Mi' } }]);
    expect(buildResourceQuota(input, testConfig({ quota: { enabled: false } }))).toBeUndefined();
    expect(buildLimitRange(input, testConfig({ limitRange: { enabled: false } }))).toBeUndefined();
  });
});
