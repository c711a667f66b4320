import type { LiveEndpoint, LiveLesson } from '@antidote/data';
import { JUPYTER_ENDPOINT } from '@antidote/lesson-objects';

/** What of an endpoint the lesson decides (hosts, domains and credentials aside). */
const shapeOf = (endpoint: LiveEndpoint): unknown => [
  endpoint.name,
  endpoint.image,
  endpoint.ports,
  endpoint.configurationType,
  endpoint.configurationFile,
  endpoint.presentations.map((p) => [p.name, p.port, p.type]),
];

/**
 * A pool member is stale when the lesson it was built from has changed: the record the lesson would give
 * now (`fresh`) differs from the member's in its stage-0 guide or its endpoints. The jupyter guide
 * endpoint the scheduler adds is left out of the comparison.
 */
type GuideAndEndpoints = Pick<LiveLesson, 'guideType' | 'guideContents'> & { endpoints: readonly LiveEndpoint[] };

export function isStaleMember(member: GuideAndEndpoints, fresh: GuideAndEndpoints): boolean {
  if (member.guideType !== fresh.guideType || member.guideContents !== fresh.guideContents) return true;
  const built = member.endpoints.filter((endpoint) => endpoint.name !== JUPYTER_ENDPOINT);
  return JSON.stringify(built.map(shapeOf)) !== JSON.stringify(fresh.endpoints.map(shapeOf));
}
