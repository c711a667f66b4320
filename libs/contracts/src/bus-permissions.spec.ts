import { describe, expect, it } from 'vitest';
import { BusIdentities, busPermissionsOf } from './bus-permissions.js';
import { EventSubjects, RequestSubjects } from './subjects.js';

const publishers = (subject: string) => BusIdentities.filter((identity) => busPermissionsOf(identity).publish.includes(subject));
const subscribers = (subject: string) => BusIdentities.filter((identity) => busPermissionsOf(identity).subscribe.includes(subject));

describe('who may do what on the bus', () => {
  it.each([
    [RequestSubjects.liveLessonCreate, ['api', 'admin'], ['scheduler']],
    [RequestSubjects.liveLessonModify, ['api', 'admin'], ['scheduler']],
    [RequestSubjects.liveLessonKeepAlive, ['api', 'admin'], ['scheduler']],
    [RequestSubjects.liveLessonBind, ['api', 'admin'], ['scheduler']],
    [RequestSubjects.liveLessonDelete, ['api', 'reaper', 'admin'], ['scheduler']],
    [RequestSubjects.healthCheck, ['scheduler'], ['healthchecker']],
    [RequestSubjects.healthWaitReachable, ['scheduler'], ['healthchecker']],
    [RequestSubjects.reaperDryRun, ['admin'], ['reaper']],
    [EventSubjects.liveLessonStatusChanged, ['scheduler'], ['api', 'admin']],
    [EventSubjects.healthProgressed, ['healthchecker'], ['api', 'admin']],
    [EventSubjects.reaperActed, ['reaper'], ['admin']],
    [EventSubjects.reaperPassed, ['reaper'], ['admin']],
    [EventSubjects.curriculumImported, ['api'], ['api', 'scheduler', 'admin']],
  ])('%s: published by %j, heard by %j', (subject, published, heard) => {
    expect(publishers(subject)).toEqual(published);
    expect(subscribers(subject)).toEqual(heard);
  });

  it('lets only services answer requests, and only askers keep an inbox', () => {
    expect(BusIdentities.filter((identity) => busPermissionsOf(identity).answersRequests)).toEqual(['scheduler', 'healthchecker', 'reaper']);
    expect(BusIdentities.filter((identity) => busPermissionsOf(identity).asksRequests)).toEqual(['api', 'scheduler', 'reaper', 'admin']);
  });

  it('grants no wildcard to anyone', () => {
    for (const identity of BusIdentities) {
      const { publish, subscribe } = busPermissionsOf(identity);
      expect([...publish, ...subscribe].filter((subject) => /[*>]/.test(subject))).toEqual([]);
    }
  });
});
