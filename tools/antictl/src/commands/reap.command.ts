import { CliErrorCodes } from '@antidote/contracts/error-codes';
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { busCredentialsFile, readBusLogin } from '../bus-credentials.js';
import { findLocalPlatform, resolveTarget, STATE_DIR } from '../local-platform.js';
import { CliError, type Output } from '../output.js';

const CONNECT_TIMEOUT_MS = 5000;

/** `antictl reap --dry-run`: what the reaper's next pass would do, asked of a reaper over NATS. */
export function reapCommand(program: Command, output: () => Output): void {
  program
    .command('reap')
    .description("show what the reaper's next pass would do")
    .option('--dry-run', 'change nothing (the only mode: passes run on their own schedule)', true)
    .option('--nats <url>', 'NATS URL (default: ANTIDOTE_NATS_URL, else the platform `antictl up` runs here, else nats://127.0.0.1:4222)')
    .option('--credentials <file>', 'NATS logins; the "admin" one is used (default: those of the platform `antictl up` runs here)')
    .action(async (flags: { nats?: string; credentials?: string }) => {
      const local = findLocalPlatform();
      const { nats } = resolveTarget(flags, process.env, local);
      const credentials = flags.credentials ?? local?.natsCredentials ?? busCredentialsFile(STATE_DIR);
      const explicit = flags.credentials !== undefined;
      // Loaded here, not at start: the other commands do without NATS.
      const [{ RequestSubjects }, { BusClient, connectNats }] = await Promise.all([import('@antidote/contracts'), import('@antidote/messaging')]);
      // A file named on the command line must be readable; without one it connects anonymously, and a server with authorization says so.
      const login = explicit || existsSync(credentials) ? readBusLogin(credentials, 'admin') : {};
      // The services' connection waits for NATS forever; a command gives up after a few seconds.
      const connecting = connectNats({ natsUrl: nats, nats: { ...login, requestTimeoutSeconds: 30 } }, 'antictl');
      const connection = await Promise.race([connecting, sleep(CONNECT_TIMEOUT_MS).then(() => undefined)]);
      if (!connection) {
        void connecting.then((late) => late.close()).catch(() => undefined);
        throw new CliError(`cannot reach NATS at ${nats} (no answer in ${CONNECT_TIMEOUT_MS / 1000} s)`, 1, CliErrorCodes.natsUnreachable);
      }
      try {
        const reply = await new BusClient(connection, { requestTimeoutMs: 30_000 }).request(RequestSubjects.reaperDryRun, {});
        output().data(reply, () => [
          ...reply.actions.map((action) => `would ${action.action} ${action.target}: ${action.reason}`),
          `${reply.actions.length} action(s); ${reply.pass.kubeCalls} Kubernetes call(s), ${reply.pass.durationMs} ms${reply.pass.errors.length ? `; errors: ${reply.pass.errors.join('; ')}` : ''}`,
        ]);
      } catch (error) {
        throw new CliError(`no reaper answered: ${error instanceof Error ? error.message : String(error)}`, 1, CliErrorCodes.noReaper);
      } finally {
        await connection.close();
      }
    });
}
