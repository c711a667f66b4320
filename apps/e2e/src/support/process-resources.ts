import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** A process's open file descriptors and, of them, its sockets (TCP, Unix), from /proc. */
export function descriptorsOf(pid: number): { fds: number; sockets: number } {
  let sockets = 0;
  const fds = readdirSync(`/proc/${pid}/fd`);
  for (const fd of fds) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) sockets++;
    } catch {
      // closed meanwhile
    }
  }
  return { fds: fds.length, sockets };
}

/**
 * An app's event-loop delay since the last call (p99 and max, ms), from its `/metrics`: prom-client's
 * default metrics read node's event-loop delay histogram and reset it at every scrape, so a scrape at
 * the start of a step and one at its end give the step's figures.
 */
export async function loopDelayOf(ops: string): Promise<{ p99Ms: number; maxMs: number }> {
  const text = await (await fetch(`${ops}/metrics`, { signal: AbortSignal.timeout(30_000) })).text();
  const gauge = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
  return { p99Ms: gauge('nodejs_eventloop_lag_p99_seconds'), maxMs: gauge('nodejs_eventloop_lag_max_seconds') };
}

/**
 * The machine's count of connections a listening socket's full accept queue dropped (TcpExt
 * ListenOverflows, /proc/net/netstat): machine-wide, so other processes' overflows count too.
 */
export function listenOverflows(): number {
  const lines = readFileSync('/proc/net/netstat', 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('TcpExt:'));
  const [names, values] = lines.map((line) => line.split(/\s+/));
  return Number(values?.[names?.indexOf('ListenOverflows') ?? -1] ?? NaN);
}

/** This process's limit of open files (the soft one, as `ulimit -n` shows it): what a child it starts inherits. */
export function openFilesLimit(): number {
  const line = /^Max open files\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
  return line?.[1] === 'unlimited' ? Number.POSITIVE_INFINITY : Number(line?.[1] ?? NaN);
}
