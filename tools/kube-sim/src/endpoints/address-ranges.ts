import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Loopback /16s a kube-sim may take: pods in 127.10–129, Services in 127.130–249 (same slot). */
const SLOTS = 120;
const CLAIMS = join(tmpdir(), 'antidote-kube-sim-ranges');

export interface AddressRanges {
  /** First two octets of pod IPs, e.g. `127.10`. */
  pods: string;
  /** First two octets of Service cluster IPs, e.g. `127.130`. */
  services: string;
  release(): void;
}

/**
 * Claims address ranges no other running kube-sim on this machine uses (a claim file per slot holding
 * the owner's pid; a dead owner's claim is taken over). Two simulators sharing a range would answer on
 * each other's pod addresses — a probe would reach the wrong simulator's SSH server.
 */
export function claimAddressRanges(): AddressRanges {
  mkdirSync(CLAIMS, { recursive: true });
  const first = Math.floor(Math.random() * SLOTS);
  for (let i = 0; i < SLOTS; i++) {
    const slot = (first + i) % SLOTS;
    const file = join(CLAIMS, String(slot));
    if (claim(file)) return { pods: `127.${10 + slot}`, services: `127.${130 + slot}`, release: () => rmSync(file, { force: true }) };
  }
  throw new Error(`no free loopback range for kube-sim: ${SLOTS} simulators already run on this machine (claims in ${CLAIMS})`);
}

function claim(file: string): boolean {
  if (create(file)) return true;
  const owner = Number(readFileSync(file, 'utf8').trim());
  if (alive(owner)) return false;
  rmSync(file, { force: true });
  return create(file);
}

function create(file: string): boolean {
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
