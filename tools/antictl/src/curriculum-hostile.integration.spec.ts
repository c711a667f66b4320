import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { HOSTILE_CURRICULA, writeHostileCurriculum, type HostileCurriculum } from '@antidote/testing';
import { describe, expect, it } from 'vitest';

const bin = join(import.meta.dirname, '..', 'bin', 'antictl.js');

/** The built CLI on a curriculum folder; the timeout is an upper bound only (the read stops itself well before). */
const validate = (dir: string) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [bin, '--json', 'curriculum', 'validate', dir], { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });

describe('antictl curriculum validate (the built CLI) on hostile curricula', () => {
  it.each(Object.keys(HOSTILE_CURRICULA) as HostileCurriculum[])(
    '%s: ends with exit 1 and a problem naming the cycle or the limit',
    async (kind) => {
      const dir = writeHostileCurriculum(kind);
      const { code, stdout, stderr } = await validate(dir);
      expect({ code, stderr }).toEqual({ code: 1, stderr: '' });
      const report = JSON.parse(stdout) as { valid: boolean; problems: { file: string; message: string }[] };
      expect(report.valid).toBe(false);
      expect(report.problems.map((problem) => problem.message)).toContainEqual(expect.stringMatching(HOSTILE_CURRICULA[kind].problem));
    },
    180_000,
  );
});
