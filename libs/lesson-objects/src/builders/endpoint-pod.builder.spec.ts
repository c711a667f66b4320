import { describe, expect, it } from 'vitest';
import { kubeSchemaProblems } from '../../test/kube-schema.js';
import { image, testConfig, triangleLesson } from '../../test/lesson-fixture.js';
import { JUPYTER_ENDPOINT, JUPYTER_PORT } from '../naming/names.js';
import { buildEndpointPod, endpointNetworks } from './endpoint-pod.builder.js';
import type { EndpointInput } from './lesson-input.js';
import { LessonObjectError } from './lesson-object.error.js';

const config = testConfig();
const input = triangleLesson();
const [vqfx1, , vqfx3] = input.endpoints;
const jupyter: EndpointInput = {
  name: JUPYTER_ENDPOINT,
  image: 'antidotelabs/jupyter:latest',
  jupyterGuide: true,
  ports: [JUPYTER_PORT],
  presentations: [],
  configurationType: '',
  configurationFile: '',
};
const networksOf = (endpoint: EndpointInput) =>
  JSON.parse(buildEndpointPod(input, endpoint, config).metadata!.annotations!['k8s.v1.cni.cncf.io/networks']) as unknown;

describe('buildEndpointPod', () => {
  it('names, labels and exposes the endpoint as §5.1/§5.5', () => {
    const pod = buildEndpointPod(input, vqfx1, config);
    expect(pod.metadata?.name).toBe('vqfx1');
    expect(pod.metadata?.labels).toEqual({
      liveLesson: 'abcdef1234',
      liveSession: 'sess000001',
      podName: 'vqfx1',
      antidoteManaged: 'yes',
      antidoteId: 'antidote-testing',
    });
    const main = pod.spec!.containers[0];
    expect(main.name).toBe('vqfx1');
    expect(main.image).toBe('antidotelabs/vqfx:latest');
    expect(main.imagePullPolicy).toBe('IfNotPresent');
    expect(main.ports?.map((p) => p.containerPort)).toEqual([22, 830]);
    expect(main.volumeMounts).toEqual([{ name: 'local-copy', mountPath: '/antidote' }]);
    expect(pod.spec?.volumes).toEqual([
      { name: 'host-volume', hostPath: { path: '/curriculum', type: 'Directory' } },
      { name: 'local-copy', emptyDir: {} },
    ]);
  });

  it('attaches one Multus network per connection, in connection order, with the image interface names', () => {
    // vqfx image names its interfaces em3, em4; vqfx1 is on connections 0 and 2.
    expect(networksOf(vqfx1)).toEqual([
      { name: 'vqfx1-vqfx2-net', interface: 'em3' },
      { name: 'vqfx1-vqfx3-net', interface: 'em4' },
    ]);
    // utility image names none: net1, net2 (Multus numbering).
    expect(networksOf(vqfx3)).toEqual([
      { name: 'vqfx2-vqfx3-net', interface: 'net1' },
      { name: 'vqfx1-vqfx3-net', interface: 'net2' },
    ]);
    expect(networksOf(jupyter)).toEqual([]);
    expect(endpointNetworks(triangleLesson({ lesson: { lessonDir: 'x', connections: [] } }), vqfx1)).toEqual([]);
  });

  it('requires the same node as the other pods of the live lesson', () => {
    const affinity = buildEndpointPod(input, vqfx1, config).spec?.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    expect(affinity).toEqual([
      {
        labelSelector: { matchLabels: { liveLesson: 'abcdef1234', liveSession: 'sess000001', antidoteManaged: 'yes' } },
        topologyKey: 'kubernetes.io/hostname',
      },
    ]);
  });

  it.each([
    ['trusted', { privileged: true, allowPrivilegeEscalation: true }, undefined],
    ['legacy', { privileged: false, allowPrivilegeEscalation: false }, undefined],
    ['untrusted', { privileged: false, allowPrivilegeEscalation: false }, 'kata'],
    ['something-new', { privileged: false, allowPrivilegeEscalation: false }, 'kata'],
  ])('maps flavor %s to its security context and runtime class (the image allowed to run trusted)', (flavor, expected, runtimeClass) => {
    const lesson = triangleLesson({ images: new Map([['vqfx', image('vqfx', { flavor: flavor as 'trusted' })]]) });
    const pod = buildEndpointPod(lesson, vqfx1, testConfig({ pods: { trustedImages: ['vqfx'] } }));
    expect(pod.spec!.containers[0].securityContext).toEqual({ ...expected, capabilities: { add: ['NET_ADMIN'] } });
    expect(pod.spec?.runtimeClassName).toBe(runtimeClass);
  });

  it.each([
    ['nothing allowed (the default)', {}],
    ['other images allowed', { pods: { trustedImages: ['vqfx-*', 'csr'] } }],
    ["the image allowed in another organisation's repository", { pods: { trustedImages: ['juniper/vqfx'] } }],
  ])('never runs a trusted image privileged unless the operator allows it: %s → unprivileged, sandbox runtime', (_case, overrides) => {
    const pod = buildEndpointPod(input, vqfx1, testConfig(overrides));
    expect(pod.spec!.containers[0].securityContext).toEqual({ privileged: false, allowPrivilegeEscalation: false, capabilities: { add: ['NET_ADMIN'] } });
    expect(pod.spec?.runtimeClassName).toBe('kata');
  });

  it.each([['vqfx'], ['vq*'], ['antidotelabs/vqfx'], ['antidotelabs/*']])('runs the trusted image privileged when pods.trustedImages has %s', (pattern) => {
    const pod = buildEndpointPod(input, vqfx1, testConfig({ pods: { trustedImages: [pattern] } }));
    expect(pod.spec!.containers[0].securityContext).toMatchObject({ privileged: true });
    expect(pod.spec).not.toHaveProperty('runtimeClassName');
  });

  it('uses no runtime class for untrusted images when none is configured', () => {
    const pod = buildEndpointPod(input, vqfx3, testConfig({ pods: { untrustedRuntimeClass: '' } }));
    expect(pod.spec).not.toHaveProperty('runtimeClassName');
  });

  it('sets the forwarding sysctls only for images that enable forwarding', () => {
    expect(buildEndpointPod(input, vqfx1, config).spec?.securityContext?.sysctls).toEqual([
      { name: 'net.ipv4.ip_forward', value: '1' },
      { name: 'net.ipv6.conf.all.forwarding', value: '1' },
    ]);
    expect(buildEndpointPod(input, vqfx3, config).spec?.securityContext).toBeUndefined();
  });

  it('gives every container requests and limits (§9 item 25)', () => {
    const pod = buildEndpointPod(input, vqfx1, config);
    expect(pod.spec!.containers[0].resources).toEqual({ requests: { cpu: '100m', memory: '256Mi' }, limits: { cpu: '2', memory: '2Gi' } });
    expect(pod.spec!.initContainers![0].resources?.limits).toEqual({ cpu: '500m', memory: '128Mi' });
  });

  it('hands the lesson directory to the init container in an env var, never inside the script', () => {
    const lesson = triangleLesson({ lesson: { lessonDir: 'lessons/$(rm -rf /); echo', connections: [] } });
    const init = buildEndpointPod(lesson, vqfx1, config).spec!.initContainers![0];
    expect(init.name).toBe('copy-local-files');
    expect(init.image).toBe('bash');
    expect(init.env).toEqual([{ name: 'ANTIDOTE_LESSON_DIR', value: 'lessons/$(rm -rf /); echo' }]);
    expect(init.command?.join(' ')).not.toContain('rm -rf');
    expect(init.command?.[2]).toContain('"/antidote-ro/$ANTIDOTE_LESSON_DIR"');
    expect(init.volumeMounts).toEqual([
      { name: 'host-volume', mountPath: '/antidote-ro', readOnly: true },
      { name: 'local-copy', mountPath: '/antidote' },
    ]);
  });

  it.each(['../../etc', '/etc', 'lessons/../../x'])('refuses lesson directory %j', (lessonDir) => {
    const lesson = triangleLesson({ lesson: { lessonDir, connections: [] } });
    expect(() => buildEndpointPod(lesson, vqfx1, config)).toThrow(expect.objectContaining({ code: 'INVALID_LESSON_DIR' }) as Error);
  });

  it('builds the jupyter guide from config.images.jupyter by its flag, not by its image name (§9 item 13)', () => {
    const pod = buildEndpointPod(input, jupyter, testConfig({ imageOrg: 'myorg' }));
    expect(pod.spec!.containers[0].image).toBe('myorg/jupyter:latest');
    expect(pod.spec?.runtimeClassName).toBe('kata');
    expect(kubeSchemaProblems(pod)).toEqual([]);
    // A curriculum image whose slug contains "jupyter" is an ordinary image.
    const lesson = triangleLesson({ images: new Map([['jupyter-tools', image('jupyter-tools')]]) });
    const ordinary = buildEndpointPod(lesson, { ...vqfx3, image: 'jupyter-tools' }, config);
    expect(ordinary.spec!.containers[0].image).toBe('antidotelabs/jupyter-tools:latest');
  });

  it('pulls always and with the pull secret when configured', () => {
    const pod = buildEndpointPod(input, vqfx1, testConfig({ alwaysPull: true, pullCredName: 'regcred' }));
    expect(pod.spec?.imagePullSecrets).toEqual([{ name: 'regcred' }]);
    expect(pod.spec!.containers[0].imagePullPolicy).toBe('Always');
    expect(pod.spec!.initContainers![0].imagePullPolicy).toBe('Always');
  });

  it('refuses an endpoint without ports or with an unknown image', () => {
    expect(() => buildEndpointPod(input, { ...vqfx1, ports: [] }, config)).toThrow(LessonObjectError);
    expect(() => buildEndpointPod(input, { ...vqfx1, image: 'nope' }, config)).toThrow(/Image nope of endpoint vqfx1/);
  });

  it('derives valid Kubernetes names from endpoint names that are not DNS labels', () => {
    const odd = { ...vqfx3, name: 'Router_1.lab' };
    const pod = buildEndpointPod(triangleLesson(), odd, config);
    expect(kubeSchemaProblems(pod)).toEqual([]);
    expect(pod.metadata?.name).toMatch(/^router-1-lab-[a-z2-7]{10}$/);
  });
});
