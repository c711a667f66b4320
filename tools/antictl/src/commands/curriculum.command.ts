import type { Command } from 'commander';
import { formatProblem, readCurriculum } from '@antidote/curriculum';
import { CliError, type Output } from '../output.js';

/** `antictl curriculum validate <dir>`: every problem of a curriculum, as the platform would see it. */
export function curriculumCommand(program: Command, output: () => Output): void {
  const curriculum = program.command('curriculum').description('work with curricula');
  curriculum
    .command('validate <dir>')
    .description('check a curriculum directory: every problem with its file and field')
    .option('--tier <tier>', 'prod, ptr or local: lessons of other tiers are skipped', 'local')
    .option('--instance-id <id>', 'instanceId the namespaces are named with', 'antidote-local')
    .action(async (dir: string, flags: { tier: string; instanceId: string }) => {
      if (!['prod', 'ptr', 'local'].includes(flags.tier)) throw new CliError(`--tier must be prod, ptr or local, not "${flags.tier}"`, 2);
      const result = await readCurriculum(dir, { tier: flags.tier as 'prod' | 'ptr' | 'local', instanceId: flags.instanceId });
      output().data({ valid: result.problems.length === 0, counts: result.counts, problems: result.problems, warnings: result.warnings }, () => [
        ...result.problems.map((problem) => `error: ${formatProblem(problem)}`),
        ...result.warnings.map((warning) => `warning: ${formatProblem(warning)}`),
        result.problems.length === 0 ? `${dir}: valid (${JSON.stringify(result.counts)})` : `${dir}: ${result.problems.length} problem(s)`,
      ]);
      if (result.problems.length > 0) process.exitCode = 1;
    });
}
