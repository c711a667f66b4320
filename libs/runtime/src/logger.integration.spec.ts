import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';

/** The built logger, as an app's process loads it. */
const LOGGER = pathToFileURL(join(import.meta.dirname, '..', 'dist', 'logger.js')).href;

/**
 * A process that logs "ready", then — once told on stdin — logs 2,000 lines and exits at once, as an app
 * stopping after its supervisor (the reader of its stdout) is gone.
 */
const CHILD = `
import { createLogger } from '${LOGGER}';
const logger = createLogger('logger-test');
logger.info('ready');
process.stdin.once('data', () => {
  for (let i = 0; i < 2000; i++) logger.info({ i }, 'a line nobody reads');
  process.exit(0);
});
`;

it('a process whose stdout was closed still exits: its logs are dropped, not retried forever', { timeout: 120_000 }, async () => {
  const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD], { stdio: ['pipe', 'pipe', 'inherit'] });
  const [first] = (await once(child.stdout, 'data')) as [Buffer];
  expect(JSON.parse(first.toString().split('\n')[0])).toMatchObject({ service: 'logger-test', msg: 'ready' });
  child.stdout.destroy(); // the reader is gone: every write now fails with EPIPE
  child.stdin.write('go\n');
  const hung = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  clearTimeout(hung);
  expect({ code, signal }).toEqual({ code: 0, signal: null });
});
