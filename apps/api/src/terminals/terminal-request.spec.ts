import { describe, expect, it } from 'vitest';
import { LiveLessonStatus } from '@antidote/contracts';
import { makeLiveEndpoint, makeNewLiveLesson } from '@antidote/testing';
import type { LiveLesson } from '@antidote/data';
import { authorizeTerminal } from './terminal-access.js';
import { originAllowed, parseTerminalRequest } from './terminal-request.js';
import { TerminalCloseCode } from './terminal.errors.js';

describe('originAllowed', () => {
  it.each([
    ["the api's own origin", 'http://127.0.0.1:8080', 'http://127.0.0.1:8080', [], true],
    ['https, as a TLS proxy forwards it', 'https://labs.example', 'https://labs.example', [], true],
    ['the same host on another scheme', 'https://labs.example', 'http://labs.example', [], false],
    ['another port', 'http://127.0.0.1:9999', 'http://127.0.0.1:8080', [], false],
    ['another site', 'http://evil.example', 'http://127.0.0.1:8080', [], false],
    ['a listed origin', 'http://front.example', 'http://127.0.0.1:8080', ['http://front.example'], true],
    ['a wildcard is never a listing', 'http://evil.example', 'http://127.0.0.1:8080', ['*'], false],
    ['no origin (not a browser)', undefined, 'http://127.0.0.1:8080', [], false],
    ['a "null" origin (sandboxed frame, file:)', 'null', 'http://127.0.0.1:8080', [], false],
    ['no own origin (no Host)', 'http://127.0.0.1:8080', undefined, [], false],
  ] as const)('%s', (_case, origin, own, allowed, expected) => {
    expect(originAllowed(origin, own, allowed)).toBe(expected);
  });
});

describe('parseTerminalRequest', () => {
  it('reads the lab, the session and the endpoint', () => {
    expect(parseTerminalRequest('/terminals?liveLessonId=abc123&sessionId=s1&endpoint=vqfx-1')).toEqual({
      liveLessonId: 'abc123',
      sessionId: 's1',
      endpoint: 'vqfx-1',
    });
    expect(parseTerminalRequest('/terminals?liveLessonId=abc123&sessionId=s1&endpoint=linux1&presentation=cli_2')).toEqual({
      liveLessonId: 'abc123',
      sessionId: 's1',
      endpoint: 'linux1',
      presentation: 'cli_2',
    });
  });
  it.each([
    '/terminals',
    '/terminals?liveLessonId=a&sessionId=b',
    '/terminals?liveLessonId=a/../b&sessionId=b&endpoint=c',
    '/terminals?liveLessonId=a&sessionId=b&endpoint=c&password=x',
    `/terminals?liveLessonId=${'a'.repeat(65)}&sessionId=b&endpoint=c`,
    '/terminals?liveLessonId=a&sessionId=b&endpoint=c&presentation=a/b',
    '/terminals?liveLessonId=a&sessionId=b&endpoint=c&presentation=',
  ])('refuses %s with a bad-request close', (url) => {
    expect(() => parseTerminalRequest(url)).toThrow(expect.objectContaining({ code: TerminalCloseCode.badRequest }));
  });
});

describe('authorizeTerminal', () => {
  const lesson = (overrides: Partial<LiveLesson> = {}): LiveLesson => ({
    ...makeNewLiveLesson({
      id: 'lab0000001',
      sessionId: 'mine',
      endpoints: [
        makeLiveEndpoint({ host: '10.96.0.7' }),
        makeLiveEndpoint({ name: 'web1', presentations: [{ name: 'web', port: 80, type: 'http', hepDomain: '' }], host: '10.96.0.8' }),
      ],
    }),
    status: LiveLessonStatus.READY,
    error: false,
    healthyTests: 2,
    totalTests: 2,
    createdAt: new Date(),
    lastActiveAt: new Date(),
    updatedAt: new Date(),
    phaseTimes: {},
    pool: false,
    ...overrides,
  });
  const ask = (found: LiveLesson | undefined, sessionId = 'mine', endpoint = 'linux1', presentation?: string) =>
    authorizeTerminal(() => Promise.resolve(found), { liveLessonId: 'lab0000001', sessionId, endpoint, presentation });

  it("answers the endpoint's address, SSH port and the image's login for the lab's own session", async () => {
    await expect(ask(lesson())).resolves.toEqual({ host: '10.96.0.7', port: 22, username: 'antidote', password: 'antidotepassword' });
  });
  it('logs in on the SSH presentation the page names, when the endpoint has several', async () => {
    const twoShells = makeLiveEndpoint({
      host: '10.96.0.9',
      presentations: [
        { name: 'cli', port: 22, type: 'ssh', hepDomain: '' },
        { name: 'shell', port: 2222, type: 'ssh', hepDomain: '' },
      ],
    });
    const found = lesson({ endpoints: [twoShells] });
    await expect(ask(found, 'mine', 'linux1', 'shell')).resolves.toMatchObject({ host: '10.96.0.9', port: 2222 });
    await expect(ask(found, 'mine', 'linux1')).resolves.toMatchObject({ port: 22 });
    await expect(ask(found, 'mine', 'linux1', 'web')).rejects.toMatchObject({
      code: TerminalCloseCode.badRequest,
      message: 'the lab has no SSH endpoint named linux1 (presentation web)',
    });
  });
  it.each([
    ["another session's lab", lesson(), 'theirs', 'linux1', TerminalCloseCode.forbidden, 'no such lab for this session'],
    ['a missing lab', undefined, 'mine', 'linux1', TerminalCloseCode.forbidden, 'no such lab for this session'],
    ['a lab being deleted', lesson({ deleteRequestedAt: new Date() }), 'mine', 'linux1', TerminalCloseCode.forbidden, 'no such lab for this session'],
    ['a failed lab', lesson({ error: true }), 'mine', 'linux1', TerminalCloseCode.notReady, 'the lab failed to start'],
    ['an endpoint without SSH', lesson(), 'mine', 'web1', TerminalCloseCode.badRequest, 'the lab has no SSH endpoint named web1'],
    ['an unknown endpoint', lesson(), 'mine', 'vqfx9', TerminalCloseCode.badRequest, 'the lab has no SSH endpoint named vqfx9'],
    ['a lab not started', lesson({ status: LiveLessonStatus.INITIALIZED }), 'mine', 'linux1', TerminalCloseCode.notReady, 'linux1 is not started yet'],
  ] as const)('refuses %s', async (_case, found, sessionId, endpoint, code, message) => {
    await expect(ask(found, sessionId, endpoint)).rejects.toMatchObject({ code, message });
  });
});
