import { Command, CommanderError } from 'commander';
import { curriculumCommand } from './commands/curriculum.command.js';
import { lessonCommand } from './commands/lesson.command.js';
import { natsConfigCommand } from './commands/nats-config.command.js';
import { poolCommand } from './commands/pool.command.js';
import { queueCommand } from './commands/queue.command.js';
import { reapCommand } from './commands/reap.command.js';
import { upCommand } from './commands/up.command.js';
import { CliError, describeFailure, Output } from './output.js';

// A reader that went away (`antictl up | head`, a closed terminal) must not crash a command halfway.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);

// Known before commander has parsed anything, so that even a usage error is JSON under --json.
const json = process.argv.slice(2).includes('--json');
const program = new Command('antictl')
  .description('Antidote for operators and lesson authors')
  .option('--json', 'machine-readable output (errors too: {"error": {"code", "message"}} on stderr)')
  .exitOverride()
  .configureOutput({ outputError: (text, write) => (json ? undefined : write(text)) });
if (!json) program.showHelpAfterError();
const output = (): Output => new Output(json);

upCommand(program, output);
lessonCommand(program, output);
curriculumCommand(program, output);
reapCommand(program, output);
poolCommand(program, output);
queueCommand(program, output);
natsConfigCommand(program, output);

/** `commander.unknownCommand` → USAGE code `UNKNOWN_COMMAND`, with commander's message. */
function usageError(error: CommanderError): CliError {
  const code = error.code
    .replace(/^commander\./, '')
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toUpperCase();
  return new CliError(error.message.replace(/^error: /, ''), 2, code);
}

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    if (json && error.exitCode !== 0) process.stderr.write(describeFailure(usageError(error), true));
    process.exit(error.exitCode);
  }
  process.stderr.write(describeFailure(error, json));
  process.exit(error instanceof CliError ? error.exitCode : 1);
}
// A command that finished leaves nothing running (a NATS client still reconnecting, say).
if (program.args[0] !== 'up') process.exit(process.exitCode ?? 0);
