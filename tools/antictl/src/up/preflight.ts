import { CliErrorCodes } from '@antidote/contracts/error-codes';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, parseConfig, readConfigFile, trustedImagesOf, type AntidoteConfig, type ConfigIssue } from '@antidote/config';
import { formatProblem, readCurriculum } from '@antidote/curriculum';
import { natsServerVersion } from '@antidote/messaging/dev';
import { CliError } from '../output.js';
import { describePortHolder, portProblem } from './port-holder.js';

/**
 * What `antictl up` checks before it starts anything, so a mistake ends at once with one clear line
 * (and leaves nothing running, no folder behind) instead of in a log file.
 */

export function checkBuilt(root: string, apps: readonly string[]): void {
  for (const app of ['tools/kube-sim', ...apps.map((name) => `apps/${name}`)]) {
    if (!existsSync(join(root, app, 'dist', 'main.js'))) throw new CliError(`${app} is not built: run \`npm run build\` first`, 1, CliErrorCodes.notBuilt);
  }
}

export function checkNatsServer(): void {
  if (natsServerVersion()) return;
  throw new CliError(
    'nats-server is not installed (or not on PATH): install it with `sudo apt-get install -y nats-server`, or run `bash tools/scripts/ensure-deps.sh`',
    1,
    CliErrorCodes.missingDependency,
  );
}

export function parsePort(text: string, what: string): number {
  const port = Number(text);
  if (text.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535)
    throw new CliError(`${what} must be a port number (0 to 65535), not "${text}"`, 2, CliErrorCodes.usage);
  return port;
}

const where = (file: string | undefined, issue: ConfigIssue): string =>
  `${file ?? 'configuration'}${issue.line ? `:${issue.line}` : ''}: ${issue.key ? `${issue.key}: ` : ''}${issue.message}`;

function configFailure(error: ConfigError): CliError {
  const lines = error.issues.map((issue) => where(error.source, issue));
  if (lines.length === 1) return new CliError(lines[0], 1, error.code);
  return new CliError(`${error.source ?? 'the configuration'} has ${lines.length} problems`, 1, error.code, lines);
}

/** The user's `--config` file: read, and validated as the apps will see it (unknown keys are an error here). */
export function readUserConfig(file: string | undefined, defaults: Record<string, unknown>): { base: Record<string, unknown>; config: AntidoteConfig } {
  try {
    const source = file ? readConfigFile(file) : undefined;
    const base = source?.contents ?? {};
    const { config } = parseConfig({ ...defaults, ...base }, { env: process.env, unknownKeys: 'error', source: file, lineOf: source?.lineOf });
    return { base, config };
  } catch (error) {
    if (error instanceof ConfigError) throw configFailure(error);
    throw error;
  }
}

/** The curriculum the api will import: every problem listed, none started. */
export async function checkCurriculum(config: AntidoteConfig): Promise<number> {
  const result = await readCurriculum(config.curriculumDir, { tier: config.tier, instanceId: config.instanceId, trustedImages: trustedImagesOf(config) });
  if (result.problems.length === 0 && result.curriculum) return result.counts.lessons;
  const problems = result.problems.map((problem) => formatProblem(problem).replace(`${config.curriculumDir}: `, ''));
  if (problems.length === 1) throw new CliError(`curriculum ${config.curriculumDir}: ${problems[0]}`, 1, CliErrorCodes.curriculumInvalid);
  throw new CliError(`curriculum ${config.curriculumDir} has ${problems.length} problems`, 1, CliErrorCodes.curriculumInvalid, problems);
}

export async function checkPortFree(port: number, host: string, flag: string): Promise<void> {
  if (port === 0) return;
  const problem = await portProblem(port, host);
  if (!problem) return;
  if (problem === 'EADDRINUSE')
    throw new CliError(
      `port ${port} is already in use by ${describePortHolder(port)}: stop it, or choose another port with ${flag}`,
      1,
      CliErrorCodes.portInUse,
    );
  throw new CliError(`cannot listen on ${host}:${port} (${problem}): choose another port with ${flag}`, 1, CliErrorCodes.portUnavailable);
}
