import { CliErrorCodes } from '@antidote/contracts/error-codes';
import type { PoolSummary } from '@antidote/contracts';
import type { Command } from 'commander';
import { ApiClient } from '../api.client.js';
import { resolveTarget } from '../local-platform.js';
import { CliError, type Output } from '../output.js';

/** A count of members or seconds, as typed: a non-negative integer. */
function count(text: string, what: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < 0)
    throw new CliError(`${what} must be a non-negative integer, not "${text}"`, 2, CliErrorCodes.badPoolSize);
  return value;
}

const sizing = (p: PoolSummary): string =>
  p.mode === 'adaptive' ? `adaptive ${p.min}..${p.max}` : `size ${p.size}${p.mode === 'override' ? ' (resized)' : ''}`;
const line = (p: PoolSummary): string =>
  `${p.lesson.padEnd(32)} ${sizing(p)}  ready ${p.ready}  building ${p.building}  retiring ${p.retiring}  maxAge ${p.maxAge} s`;

/** `antictl pool list|resize|reset`: the warm pools (`warmPools` in the config, or set by an operator), through the api's admin routes. */
export function poolCommand(program: Command, output: () => Output): void {
  const pool = program
    .command('pool')
    .description('warm pools of READY live lessons')
    .option('--api <url>', 'API base URL (default: ANTIDOTE_API, else the platform `antictl up` runs here, else http://127.0.0.1:8086)')
    .option('--token <token>', 'admin token (default: ANTIDOTE_ADMIN_TOKEN, else the one `antictl up` made here)');
  const client = () => {
    const { api, token } = resolveTarget(pool.opts<{ api?: string; token?: string }>());
    return new ApiClient(api, token);
  };

  pool
    .command('list')
    .description('each warm pool: its sizing, maxAge and unclaimed members READY, building and retiring')
    .action(async () => {
      const pools = await client().listPools();
      output().data(pools, () => (pools.length ? pools.map(line) : ['no warm pools (warmPools in the config, or `antictl pool resize`)']));
    });

  pool
    .command('resize <slug> <size>')
    .description("keep <size> members of the lesson READY (0 drains the pool), over the config's sizing, for every scheduler from its next pass")
    .option('--max-age <seconds>', 'replace a member unclaimed this long (0 = never; default: the config’s, else 3600)')
    .action(async (slug: string, size: string, options: { maxAge?: string }) => {
      const resize = { size: count(size, 'size'), ...(options.maxAge === undefined ? {} : { maxAge: count(options.maxAge, '--max-age') }) };
      const resized = await client().resizePool(slug, resize);
      output().data(resized, () => [line(resized)]);
    });

  pool
    .command('reset <slug>')
    .description("drop the size `pool resize` set: the config's sizing again")
    .action(async (slug: string) => {
      const answer = await client().resetPool(slug);
      output().data(answer, () => [`${slug}: sized by the config again`]);
    });
}
