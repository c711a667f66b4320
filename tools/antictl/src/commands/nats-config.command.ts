import type { Command } from 'commander';
import { deployedNatsAuthorizationConfig } from '@antidote/messaging';
import type { Output } from '../output.js';

/**
 * `antictl nats-config`: the nats-server `authorization` block for a NATS the operator runs — one user
 * per app with exactly its subjects, passwords read from nats-server's environment. The same text is
 * shipped in deploy/k8s/base/nats-authorization.yaml (a test keeps the two equal).
 */
export function natsConfigCommand(program: Command, output: () => Output): void {
  program
    .command('nats-config')
    .description("print nats-server's authorization block for Antidote (one user per app, passwords from $API_PASSWORD, $SCHEDULER_PASSWORD…)")
    .action(() => {
      const text = deployedNatsAuthorizationConfig();
      output().data({ authorization: text }, () => [text.trimEnd()]);
    });
}
