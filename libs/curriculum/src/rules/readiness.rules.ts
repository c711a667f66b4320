import { readinessPort } from '@antidote/contracts';
import { endpointPorts, type Image, type Lesson } from '../curriculum.model.js';
import type { ProblemList } from '../problem.js';

/**
 * An endpoint whose image declares a readiness check must have a port to run it on: the check's own
 * `port`, or (http) an http presentation, (tcp) any port. Reported on the lesson, at the endpoint's image.
 */
export function checkReadinessPorts(lesson: Lesson, imageOf: (slug: string) => Image | undefined, problems: ProblemList): void {
  lesson.endpoints.forEach((endpoint, i) => {
    const check = imageOf(endpoint.image)?.readiness;
    if (!check || readinessPort(check, { ports: endpointPorts(endpoint), presentations: endpoint.presentations }) !== undefined) return;
    const needs = check.type === 'http' ? 'an http presentation' : 'a port';
    problems.add(
      lesson.lessonFile,
      'readiness-port',
      `endpoint "${endpoint.name}" has no port for the readiness check (${check.type}) of image "${endpoint.image}": give it ${needs}, or set readiness.port in the image`,
      `endpoints[${i}].image`,
    );
  });
}
