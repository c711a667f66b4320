import { Command, CommanderError } from 'commander';
import { curriculumCommand } from './commands/curriculum.command.js';
import { lessonCommand } from './commands/lesson.command.js';
import { natsConfigCommand } from './commands/nats-config.command.js';
import { reapCommand } from './commands/reap.command.js';
import { upCommand } from './commands/up.command.js';
import { CliError, Output } from './output.js';

const program = new Command('antictl')
  .description('Antidote for operators and lesson authors')
  .option('--json', 'machine-readable output')
  .exitOverride()
  .showHelpAfterError();
const output = (): Output => new Output(Boolean(program.opts<{ json?: boolean }>().json));

upCommand(program, output);
lessonCommand(program, output);
curriculumCommand(program, output);
reapCommand(program, output);
natsConfigCommand(program, output);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`antictl: ${message}\n`);
  process.exit(error instanceof CliError ? error.exitCode : 1);
}
// A command that finished leaves nothing running (a NATS client still reconnecting, say).
if (program.args[0] !== 'up') process.exit(process.exitCode ?? 0);
