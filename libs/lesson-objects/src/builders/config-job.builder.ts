import type { AntidoteConfig } from '@antidote/config';
import type { V1EnvVar, V1Job } from '@kubernetes/client-node';
import { LABEL, JOB_TYPE_CONFIG, MANAGED } from '../naming/labels.js';
import { CONFIG_CONTAINER, configJobName } from '../naming/names.js';
import type { EndpointInput, LessonObjectsInput } from './lesson-input.js';
import { LessonObjectError } from './lesson-object.error.js';
import { namespaceOf, pullPolicy, pullSecrets, resources } from './lesson-context.js';
import { checkedLessonDir, copyLessonFilesContainer, LESSON_FILES_PATH, lessonFilesMount, lessonVolumes } from './lesson-files.js';
import { napalmDriver } from './napalm-driver.js';
import { CONFIG_CREDENTIALS_SECRET, credentialKeys } from './secret.builder.js';

const DEFAULT_SSH_PORT = 22;

/** The file a stage's configuration job runs: the curriculum's per-stage file, else `stage<N>/configs/<file>`. */
export function configFilePath(endpoint: EndpointInput, stage: number): string {
  const relative = endpoint.configurationFiles?.[stage] ?? `stage${stage}/configs/${endpoint.configurationFile}`;
  if (!endpoint.configurationFiles?.[stage] && !endpoint.configurationFile) {
    throw new LessonObjectError(
      'INVALID_CONFIGURATION_FILE',
      `Endpoint ${endpoint.name} has configuration type ${endpoint.configurationType} but no configuration file`,
    );
  }
  try {
    return `${LESSON_FILES_PATH}/${checkedLessonDir(relative)}`;
  } catch {
    throw new LessonObjectError('INVALID_CONFIGURATION_FILE', `Configuration file ${JSON.stringify(relative)} of ${endpoint.name} must stay inside the lesson`);
  }
}

/** Command of the configurator per type; credentials only as `$(VAR)` references Kubernetes expands from the Secret. */
function command(endpoint: EndpointInput, host: string, file: string): string[] {
  switch (endpoint.configurationType) {
    case 'python':
      return ['python', file];
    case 'ansible':
      return ['ansible-playbook', '-vvvv', '-i', `${host},`, file];
    case 'napalm': {
      const ssh = endpoint.presentations.find((presentation) => presentation.type === 'ssh');
      const driver = napalmDriver(endpoint.name, file);
      return ['/configure.py', '$(ANTIDOTE_TARGET_USERNAME)', '$(ANTIDOTE_TARGET_PASSWORD)', driver, String(ssh?.port ?? DEFAULT_SSH_PORT), host, file];
    }
    case '':
      break;
  }
  // Also reached by types the curriculum model does not know (records written by other tools).
  throw new LessonObjectError(
    'UNKNOWN_CONFIGURATION_TYPE',
    `Endpoint ${endpoint.name} has unknown configuration type ${JSON.stringify(endpoint.configurationType)}`,
  );
}

function env(endpoint: EndpointInput, host: string, file: string): V1EnvVar[] {
  const keys = credentialKeys(endpoint.name);
  const fromSecret = (name: string, key: string): V1EnvVar => ({ name, valueFrom: { secretKeyRef: { name: CONFIG_CREDENTIALS_SECRET, key } } });
  return [
    { name: 'ANTIDOTE_TARGET_HOST', value: host },
    fromSecret('ANTIDOTE_TARGET_USERNAME', keys.username),
    fromSecret('ANTIDOTE_TARGET_PASSWORD', keys.password),
    { name: 'ANTIDOTE_CONFIG_FILE', value: file },
    { name: 'ANSIBLE_HOST_KEY_CHECKING', value: 'False' },
  ];
}

/**
 * Configuration Job `config-<endpoint>-<stage>` (reference §5.6) with the lesson files, the configurator
 * image from `config.images` (imageOrg-derived, §9 item 12) and the pull secret, credentials from the
 * namespace's Secret (§9 item 27), `backoffLimit` from config (the Job fails after 1 + backoffLimit failed
 * pods) and an `activeDeadlineSeconds` equal to the configuration timeout, so Kubernetes stops it too.
 */
export function buildConfigJob(input: LessonObjectsInput, endpoint: EndpointInput, stage: number, config: AntidoteConfig): V1Job {
  if (!endpoint.host) throw new LessonObjectError('ENDPOINT_WITHOUT_HOST', `Endpoint ${endpoint.name} has no Service address to configure`);
  const file = configFilePath(endpoint, stage);
  const name = configJobName(endpoint.name, stage);
  const secrets = pullSecrets(config);
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      namespace: namespaceOf(input),
      labels: { [LABEL.managed]: MANAGED, [LABEL.antidoteId]: input.instanceId, [LABEL.jobType]: JOB_TYPE_CONFIG, [LABEL.stageId]: String(stage) },
    },
    spec: {
      backoffLimit: config.scheduler.configJobBackoffLimit,
      activeDeadlineSeconds: Math.ceil(config.timeouts.configJobSeconds),
      template: {
        metadata: {
          name,
          labels: { [LABEL.managed]: MANAGED, [LABEL.antidoteId]: input.instanceId, [LABEL.configPod]: MANAGED, [LABEL.stageId]: String(stage) },
        },
        spec: {
          restartPolicy: 'Never',
          automountServiceAccountToken: false,
          initContainers: [copyLessonFilesContainer(input.lesson.lessonDir, config)],
          containers: [
            {
              name: CONFIG_CONTAINER,
              image: config.images.configurator,
              imagePullPolicy: pullPolicy(config),
              command: command(endpoint, endpoint.host, file),
              env: env(endpoint, endpoint.host, file),
              volumeMounts: [lessonFilesMount()],
              resources: resources(config.pods.configuratorResources),
            },
          ],
          volumes: lessonVolumes(config),
          ...(secrets ? { imagePullSecrets: secrets } : {}),
        },
      },
    },
  };
}

/** The jobs of one stage: one per endpoint with a configuration type, in endpoint order. */
export const buildConfigJobs = (input: LessonObjectsInput, stage: number, config: AntidoteConfig): V1Job[] =>
  input.endpoints.filter((endpoint) => endpoint.configurationType && !endpoint.jupyterGuide).map((endpoint) => buildConfigJob(input, endpoint, stage, config));
