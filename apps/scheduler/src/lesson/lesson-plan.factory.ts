import { Inject, Injectable } from '@nestjs/common';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { usesJupyterGuide } from '@antidote/curriculum';
import { CurriculumSnapshot, DataManager, type LiveEndpoint, type LiveLesson } from '@antidote/data';
import { JUPYTER_ENDPOINT, JUPYTER_PORT, namespaceName } from '@antidote/lesson-objects';
import { CurriculumCache } from '@antidote/runtime';
import type { LessonPlan } from '../cluster/lesson-cluster.port.js';
import { LessonFailure } from './lesson-failure.error.js';

/** What one live lesson needs: its lesson and images (from the curriculum held in memory), and the jupyter guide endpoint. */
@Injectable()
export class LessonPlanFactory {
  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @InjectConfig() private readonly config: AntidoteConfig,
    @Inject(CurriculumCache) private readonly curriculum: CurriculumSnapshot,
  ) {}

  async build(liveLesson: LiveLesson): Promise<LessonPlan> {
    const lesson = await this.curriculum.lesson(liveLesson.lessonSlug);
    if (!lesson) throw new LessonFailure(`Lesson ${liveLesson.lessonSlug} is not in the curriculum any more`);
    const { images, missing } = await this.curriculum.imagesOf(lesson);
    if (missing[0]) throw new LessonFailure(`Image ${missing[0].image} of endpoint ${missing[0].endpoint} is not in the curriculum`);
    let current = liveLesson;
    if (usesJupyterGuide(lesson) && !current.endpoints.some((endpoint) => endpoint.name === JUPYTER_ENDPOINT)) {
      // Persisted explicitly (the original got this by pointer aliasing): it is health-checked and counted.
      await this.data.liveLessons.addEndpoint(current.id, this.jupyterEndpoint(current.endpoints.length));
      current = await this.data.liveLessons.get(current.id);
    }
    return { namespace: namespaceName(this.config.instanceId, current.id), liveLesson: current, lesson, images };
  }

  private jupyterEndpoint(position: number): LiveEndpoint {
    return {
      name: JUPYTER_ENDPOINT,
      position,
      image: this.config.images.jupyter,
      ports: [JUPYTER_PORT],
      presentations: [],
      configurationType: '',
      configurationFile: '',
      sshUser: '',
      sshPassword: '',
    };
  }
}
