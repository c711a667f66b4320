import type { Command } from 'commander';
import { CliError, type Output } from '../output.js';

/** `antictl curriculum validate <dir>`: every problem of a curriculum, as the platform would see it. */
export function curriculumCommand(program: Command, output: () => Output): void {
  const curriculum = program.command('curriculum').description('work with curricula');
  curriculum
    .command('validate <dir>')
    .description('check a curriculum directory: every problem with its file and field')
    .option('--tier <tier>', 'prod, ptr or local: lessons of other tiers are skipped', 'local')
    .option('--instance-id <id>', 'instanceId the namespaces are named with', 'antidote-local')
    .option(
      '--config <file>',
      'an Antidote config: also checks the curriculum against it (which images pods.trustedImages lets run privileged, curriculumLimits)',
    )
    .action(async (dir: string, flags: { tier: string; instanceId: string; config?: string }) => {
      if (!['prod', 'ptr', 'local'].includes(flags.tier)) throw new CliError(`--tier must be prod, ptr or local, not "${flags.tier}"`, 2);
      const [{ formatProblem, readCurriculumIsolated }, operator] = await Promise.all([
        import('@antidote/curriculum'),
        flags.config ? operatorChecks(flags.config, dir) : undefined,
      ]);
      const result = await readCurriculumIsolated(dir, { tier: flags.tier as 'prod' | 'ptr' | 'local', instanceId: flags.instanceId, ...operator });
      output().data({ valid: result.problems.length === 0, counts: result.counts, problems: result.problems, warnings: result.warnings }, () => [
        ...result.problems.map((problem) => `error: ${formatProblem(problem)}`),
        ...result.warnings.map((warning) => `warning: ${formatProblem(warning)}`),
        result.problems.length === 0 ? `${dir}: valid (${JSON.stringify(result.counts)})` : `${dir}: ${result.problems.length} problem(s)`,
      ]);
      if (result.problems.length > 0) process.exitCode = 1;
    });

  curriculum
    .command('import <dir>')
    .description('validate a curriculum and load it into the configured database, replacing the current one in one transaction')
    .option('--config <file>', 'Antidote config (its database and tier); default ANTIDOTE_CONFIG')
    .action(async (dir: string, flags: { config?: string }) => {
      const out = output();
      const [{ loadConfig, trustedImagesOf }, { formatProblem, readCurriculumIsolated }, { createDataSource, DataManager, runMigrations }] = await Promise.all([
        import('@antidote/config'),
        import('@antidote/curriculum'),
        import('@antidote/data'),
      ]);
      const { config } = loadConfig({ ...(flags.config ? { path: flags.config } : {}), overrides: { curriculumDir: dir } });
      const result = await readCurriculumIsolated(dir, {
        tier: config.tier,
        instanceId: config.instanceId,
        limits: config.curriculumLimits,
        trustedImages: trustedImagesOf(config),
      });
      if (!result.curriculum || result.problems.length > 0) {
        for (const problem of result.problems) out.line(`error: ${formatProblem(problem)}`);
        throw new CliError(`${dir}: ${result.problems.length} problem(s); nothing imported, the current curriculum is unchanged`);
      }
      const dataSource = createDataSource(config.database);
      await dataSource.initialize();
      try {
        await runMigrations(dataSource);
        const data = new DataManager(dataSource);
        await data.curriculum.replaceCurriculum(result.curriculum);
      } finally {
        await dataSource.destroy();
      }
      out.data({ imported: true, counts: result.counts }, () => [`imported ${dir}: ${JSON.stringify(result.counts)}`]);
    });
}

/** What an operator's config adds to the checks of a curriculum: its privileged images and read limits. */
async function operatorChecks(file: string, dir: string) {
  const { loadConfig, trustedImagesOf } = await import('@antidote/config');
  const { config } = loadConfig({ path: file, overrides: { curriculumDir: dir } });
  return { limits: config.curriculumLimits, trustedImages: trustedImagesOf(config) };
}
