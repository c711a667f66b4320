import type { Command } from 'commander';
import { ApiClient } from '../api.client.js';
import { resolveTarget } from '../local-platform.js';
import type { Output } from '../output.js';

/** `antictl pool list`: the warm pools (`warmPools` in the config) and their members, through the api's admin route. */
export function poolCommand(program: Command, output: () => Output): void {
  const pool = program
    .command('pool')
    .description('warm pools of READY live lessons')
    .option('--api <url>', 'API base URL (default: ANTIDOTE_API, else the platform `antictl up` runs here, else http://127.0.0.1:8086)')
    .option('--token <token>', 'admin token (default: ANTIDOTE_ADMIN_TOKEN, else the one `antictl up` made here)');

  pool
    .command('list')
    .description('each warm pool: its size, maxAge and unclaimed members READY, building and retiring')
    .action(async () => {
      const { api, token } = resolveTarget(pool.opts<{ api?: string; token?: string }>());
      const pools = await new ApiClient(api, token).listPools();
      output().data(pools, () =>
        pools.length
          ? pools.map((p) => `${p.lesson.padEnd(32)} size ${p.size}  ready ${p.ready}  building ${p.building}  retiring ${p.retiring}  maxAge ${p.maxAge} s`)
          : ['no warm pools configured (warmPools in the config)'],
      );
    });
}
