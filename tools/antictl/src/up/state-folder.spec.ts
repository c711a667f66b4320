import { chmodSync, mkdirSync, mkdtempSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareStateFolder } from './state-folder.js';

const modeOf = (path: string): number => statSync(path).mode & 0o777;

describe('prepareStateFolder', () => {
  const umask = process.umask();
  afterEach(() => void process.umask(umask));

  it('makes the folder, its logs and the files an earlier run left readable by this user only; nothing else, no link followed', () => {
    const home = mkdtempSync(join(tmpdir(), 'state-folder-'));
    const dir = join(home, '.antidote');
    mkdirSync(join(dir, 'logs'), { recursive: true });
    chmodSync(dir, 0o755);
    chmodSync(join(dir, 'logs'), 0o755);
    const earlier = [
      'antidote.sqlite',
      'antidote.sqlite-wal',
      'antidote.sqlite-shm',
      'kubeconfig',
      'nats-credentials.json',
      'antidote-config.yml',
      'platform.json',
      'logs/api.log',
      'logs/kube-sim.log',
    ];
    for (const name of earlier) writeFileSync(join(dir, name), 'secret', { mode: 0o644 });
    writeFileSync(join(dir, 'notes.sh'), '#!/bin/sh\n', { mode: 0o755 });
    const outside = join(home, 'outside');
    writeFileSync(outside, '', { mode: 0o644 });
    symlinkSync(outside, join(dir, 'kubeconfig.link'));
    symlinkSync(outside, join(dir, 'logs', 'linked.log'));

    prepareStateFolder(dir);

    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(join(dir, 'logs'))).toBe(0o700);
    for (const name of earlier) expect([name, modeOf(join(dir, name))]).toEqual([name, 0o600]);
    expect(modeOf(join(dir, 'notes.sh'))).toBe(0o755);
    expect(modeOf(outside)).toBe(0o644);
  });

  it('creates a new folder 0700, and what is written afterwards is 0600 whatever the umask was', () => {
    process.umask(0o022);
    const dir = join(mkdtempSync(join(tmpdir(), 'state-folder-')), 'nested', '.antidote');
    prepareStateFolder(dir);
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(join(dir, 'logs'))).toBe(0o700);
    writeFileSync(join(dir, 'antidote.sqlite'), '');
    expect(modeOf(join(dir, 'antidote.sqlite'))).toBe(0o600);
  });
});
