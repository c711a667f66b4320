import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AntidoteConfig } from '@antidote/config';
import { DataManager } from '@antidote/data';
import { lessonFiles } from './lesson-files.js';
import { locateWebAssets } from './web-assets.js';
import { loadWebFiles } from './web-files.js';
import { webStatic } from './web-static.js';

const logger = new Logger('Web');

/** Serves the learner's UI under `/` when enabled and found; without it the api serves `/exp` alone, and says why. */
export function serveWeb(app: NestExpressApplication, config: AntidoteConfig): void {
  if (!config.api.web.enabled) return;
  const assets = locateWebAssets(config.api.web.root, import.meta.dirname);
  if ('missing' in assets) {
    logger.warn(`the learner's web UI is not served: ${assets.missing}`);
    return;
  }
  app.use(webStatic(loadWebFiles(assets), config));
  app.use(lessonFiles(app.get(DataManager), config.curriculumDir, config.api.web.lessonFileMaxBytes));
}
