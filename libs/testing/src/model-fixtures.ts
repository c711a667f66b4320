import type { Collection, Curriculum, Image, Lesson, LessonEndpoint } from '@antidote/curriculum';
import type { LiveEndpoint, NewLiveLesson } from '@antidote/data';

/** Small, valid model objects for tests; override what the test is about. */
export function makeImage(overrides: Partial<Image> = {}): Image {
  return {
    slug: 'utility',
    description: 'Linux utility host',
    flavor: 'untrusted',
    enableForwarding: false,
    networkInterfaces: [],
    sshUser: 'antidote',
    sshPassword: 'antidotepassword',
    configUser: 'antidote',
    configPassword: 'antidotepassword',
    ...overrides,
  };
}

export function makeEndpoint(overrides: Partial<LessonEndpoint> = {}): LessonEndpoint {
  return {
    name: 'linux1',
    image: 'utility',
    configurationType: '',
    configurationFile: '',
    configurationFiles: {},
    additionalPorts: [],
    presentations: [{ name: 'cli', port: 22, type: 'ssh' }],
    ...overrides,
  };
}

export function makeLesson(overrides: Partial<Lesson> = {}): Lesson {
  return {
    slug: 'test-lesson',
    name: 'Antidote Test Lesson',
    category: 'workflows',
    diagram: '',
    video: '',
    tier: 'prod',
    collection: '',
    description: 'A lesson for tests',
    shortDescription: 'test',
    prereqs: [],
    tags: [],
    stages: [{ description: 'Only stage', guideType: 'markdown', stageVideo: '', guideContents: 'test guide' }],
    endpoints: [makeEndpoint()],
    connections: [],
    authors: [],
    readyDelay: 0,
    lessonFile: 'lessons/test-lesson/lesson.meta.yaml',
    lessonDir: 'lessons/test-lesson',
    ...overrides,
  };
}

export function makeCollection(overrides: Partial<Collection> = {}): Collection {
  return {
    slug: 'valid-collection',
    title: 'Stargate Command',
    image: 'https://example.com/logo.png',
    website: 'https://example.com',
    contactEmail: 'sgc@example.com',
    briefDescription: 'brief',
    longDescription: 'long',
    type: 'community',
    tier: 'prod',
    collectionFile: 'collections/sgc/collection.meta.yaml',
    ...overrides,
  };
}

export function makeCurriculum(overrides: Partial<Curriculum> = {}): Curriculum {
  return {
    meta: {
      name: 'antidote-test-curriculum',
      description: 'A test curriculum',
      website: 'https://example.com',
      aVer: '0.6.0',
      gitRoot: 'https://example.com/git',
    },
    collections: [makeCollection()],
    images: [makeImage()],
    lessons: [makeLesson()],
    ...overrides,
  };
}

export function makeLiveEndpoint(overrides: Partial<LiveEndpoint> = {}): LiveEndpoint {
  return {
    name: 'linux1',
    position: 0,
    image: 'utility',
    ports: [22],
    presentations: [{ name: 'cli', port: 22, type: 'ssh', hepDomain: 'test-abc-linux1-cli.localhost' }],
    configurationType: '',
    configurationFile: '',
    sshUser: 'antidote',
    sshPassword: 'antidotepassword',
    ...overrides,
  };
}

export function makeNewLiveLesson(overrides: Partial<NewLiveLesson> = {}): NewLiveLesson {
  return {
    id: 'abcdef0123',
    sessionId: 'session0001',
    antidoteId: 'antidote-testing',
    lessonSlug: 'test-lesson',
    currentStage: 0,
    guideType: 'markdown',
    guideContents: 'test guide',
    guideDomain: 'antidote-testing-abcdef0123-jupyterlabguide-web.localhost',
    endpoints: [makeLiveEndpoint()],
    ...overrides,
  };
}
