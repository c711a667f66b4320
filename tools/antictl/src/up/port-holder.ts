import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';

const LISTEN = '0A';

/** Inodes of the sockets listening on `port` (IPv4 and IPv6), from /proc/net/tcp{,6}. */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const row of text.split('\n').slice(1)) {
      const fields = row.trim().split(/\s+/);
      const local = fields[1];
      if (!local || fields[3] !== LISTEN) continue;
      if (Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16) === port) inodes.add(fields[9]);
    }
  }
  return inodes;
}

/** The process owning one of the socket inodes, through /proc/<pid>/fd (only our own user's processes are visible). */
function ownerOf(inodes: Set<string>): { pid: number; command: string } | undefined {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) {
        const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
        return { pid: Number(pid), command };
      }
    }
  }
  return undefined;
}

/** What holds a listening TCP port: "pid 123 (node apps/api/dist/main.js)", or a vaguer phrase when /proc tells no more. */
export function describePortHolder(port: number): string {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return 'another process';
  const owner = ownerOf(inodes);
  if (!owner) return 'a process of another user';
  const command = owner.command.length > 120 ? `${owner.command.slice(0, 117)}…` : owner.command;
  return `pid ${owner.pid} (${command})`;
}

/** Whether `port` can be listened on at `host` now: undefined if so, else the error code (EADDRINUSE, EACCES…). */
export function portProblem(port: number, host: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(undefined)));
  });
}
