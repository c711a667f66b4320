import type { AntidoteConfig } from '@antidote/config';
import type { V1Container, V1Volume, V1VolumeMount } from '@kubernetes/client-node';
import { COPY_CONTAINER } from '../naming/names.js';
import { LessonObjectError } from './lesson-object.error.js';
import { pullPolicy, resources } from './lesson-context.js';

export const HOST_VOLUME = 'host-volume';
export const LOCAL_COPY_VOLUME = 'local-copy';
export const LESSON_FILES_PATH = '/antidote';
const READ_ONLY_PATH = '/antidote-ro';
/** The init container reads the lesson directory from here, never from an interpolated string. */
export const LESSON_DIR_ENV = 'ANTIDOTE_LESSON_DIR';

/**
 * Fixed script (no interpolation: the directory arrives in `$ANTIDOTE_LESSON_DIR`). Copies the lesson
 * directory — dot files included — into the pod's writable copy, and hands it to a user `antidote`.
 */
const COPY_SCRIPT = [
  'set -eu',
  `ls ${READ_ONLY_PATH}`,
  `src="${READ_ONLY_PATH}/$${LESSON_DIR_ENV}"`,
  'if [ ! -d "$src" ]; then echo "lesson directory $src not found" >&2; exit 1; fi',
  `cp -R "$src/." ${LESSON_FILES_PATH}/`,
  'id antidote >/dev/null 2>&1 || adduser -D antidote 2>/dev/null || useradd antidote',
  `chown -R antidote:antidote ${LESSON_FILES_PATH}`,
  `ls ${LESSON_FILES_PATH}`,
].join('\n');

/** A lesson directory relative to the curriculum root, refusing anything that could leave it. */
export function checkedLessonDir(lessonDir: string): string {
  const trimmed = lessonDir.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  const segments = trimmed.split('/');
  const bad = trimmed.startsWith('/') || segments.includes('..') || /[\0\n\r]/.test(trimmed);
  if (bad)
    throw new LessonObjectError('INVALID_LESSON_DIR', `Lesson directory ${JSON.stringify(lessonDir)} must be relative to the curriculum and stay inside it`);
  return trimmed === '' ? '.' : trimmed;
}

/** `host-volume` = the curriculum on the node (hostPath), `local-copy` = the pod's own copy (emptyDir). */
export const lessonVolumes = (config: Pick<AntidoteConfig, 'curriculumDir'>): V1Volume[] => [
  { name: HOST_VOLUME, hostPath: { path: config.curriculumDir, type: 'Directory' } },
  { name: LOCAL_COPY_VOLUME, emptyDir: {} },
];

export const lessonFilesMount = (): V1VolumeMount => ({ name: LOCAL_COPY_VOLUME, mountPath: LESSON_FILES_PATH });

/** Init container `copy-local-files` (reference §5.5), shared by endpoint pods and configuration jobs. */
export function copyLessonFilesContainer(lessonDir: string, config: AntidoteConfig): V1Container {
  return {
    name: COPY_CONTAINER,
    image: config.images.copier,
    imagePullPolicy: pullPolicy(config),
    command: ['bash', '-c', COPY_SCRIPT],
    env: [{ name: LESSON_DIR_ENV, value: checkedLessonDir(lessonDir) }],
    volumeMounts: [
      { name: HOST_VOLUME, mountPath: READ_ONLY_PATH, readOnly: true },
      { name: LOCAL_COPY_VOLUME, mountPath: LESSON_FILES_PATH },
    ],
    resources: resources(config.pods.copierResources),
  };
}
