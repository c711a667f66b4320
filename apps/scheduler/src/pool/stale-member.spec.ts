import { makeLiveEndpoint } from '@antidote/testing';
import { describe, expect, it } from 'vitest';
import { isStaleMember } from './stale-member.js';

const endpoint = makeLiveEndpoint({ name: 'vqfx1', position: 0, image: 'vqfx' });
const fresh = { guideType: 'markdown' as const, guideContents: 'guide', endpoints: [endpoint] };

describe('isStaleMember', () => {
  it.each([
    ['the same lesson', fresh, false],
    [
      'the same lesson plus the jupyter guide the scheduler added',
      { ...fresh, endpoints: [endpoint, makeLiveEndpoint({ name: 'jupyterlabguide', position: 1 })] },
      false,
    ],
    ['the same lesson with its Service addresses', { ...fresh, endpoints: [{ ...endpoint, host: '10.0.0.1' }] }, false],
    ['a changed guide', { ...fresh, guideContents: 'old guide' }, true],
    ['a changed image', { ...fresh, endpoints: [{ ...endpoint, image: 'old-image' }] }, true],
    ['a changed configuration file', { ...fresh, endpoints: [{ ...endpoint, configurationFile: 'old.py' }] }, true],
    ['an endpoint the lesson no longer has', { ...fresh, endpoints: [endpoint, makeLiveEndpoint({ name: 'gone', position: 1 })] }, true],
    ['an endpoint the lesson has gained', { ...fresh, endpoints: [] }, true],
  ] as const)('%s → stale %s', (_name, member, stale) => {
    expect(isStaleMember(member, fresh)).toBe(stale);
  });
});
