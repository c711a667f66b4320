import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimAddressRanges } from './address-ranges.js';

const CLAIMS = join(tmpdir(), 'antidote-kube-sim-ranges');

describe('claimAddressRanges', () => {
  it('gives every simulator on the machine ranges of its own, and frees them on release', () => {
    const claims = Array.from({ length: 20 }, () => claimAddressRanges());
    expect(new Set(claims.map((claim) => claim.pods)).size).toBe(20);
    expect(new Set(claims.map((claim) => claim.services)).size).toBe(20);
    for (const { pods, services } of claims) {
      expect(pods).toMatch(/^127\.(\d+)$/);
      expect(Number(services.split('.')[1]) - Number(pods.split('.')[1])).toBe(120);
    }
    const files = claims.map((claim) => join(CLAIMS, String(Number(claim.pods.split('.')[1]) - 10)));
    expect(files.map((file) => readFileSync(file, 'utf8'))).toEqual(Array(20).fill(String(process.pid)));
    for (const claim of claims) claim.release();
    // Gone, or already claimed by a simulator in another process.
    expect(files.filter((file) => existsSync(file) && readFileSync(file, 'utf8') === String(process.pid))).toEqual([]);
  });

  it('takes over the claims of simulators that died without releasing them', () => {
    // Every free slot claimed by a pid above Linux's pid_max (no such process); live claims are left alone.
    const dead = String(2 ** 22 + 1);
    const stale: string[] = [];
    for (let slot = 0; slot < 120; slot++) {
      const file = join(CLAIMS, String(slot));
      try {
        writeFileSync(file, dead, { flag: 'wx' });
        stale.push(file);
      } catch {
        // held by a running simulator
      }
    }
    expect(readdirSync(CLAIMS)).toHaveLength(120); // every slot held: the claim must take over a dead one
    const claim = claimAddressRanges();
    const taken = join(CLAIMS, String(Number(claim.pods.split('.')[1]) - 10));
    expect(readFileSync(taken, 'utf8')).toBe(String(process.pid));
    claim.release();
    for (const file of stale) if (existsSync(file) && readFileSync(file, 'utf8') === dead) rmSync(file);
  });
});
