export interface RequestRecord {
  at: string;
  method: string;
  path: string;
  /** Who called, as the client named itself (`antidote-scheduler`, `kubectl/…`). */
  userAgent: string;
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  code: number;
}

/** Calls per verb/resource/status code, and a bounded log of requests (for RBAC checks and benchmarks). */
export class RequestCounters {
  private counts = new Map<string, number>();
  private log: RequestRecord[] = [];

  constructor(private readonly maxLog = 200_000) {}

  record(entry: RequestRecord): void {
    const resource = entry.subresource ? `${entry.resource}/${entry.subresource}` : entry.resource;
    const key = `${entry.verb} ${resource} ${entry.code}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    if (this.log.length < this.maxLog) this.log.push(entry);
  }

  /** `{ "create pods 201": 3, … }` plus totals by verb and overall. */
  snapshot(): { total: number; byVerb: Record<string, number>; byKey: Record<string, number> } {
    const byKey = Object.fromEntries([...this.counts].sort(([a], [b]) => a.localeCompare(b)));
    const byVerb: Record<string, number> = {};
    let total = 0;
    for (const [key, count] of this.counts) {
      const verb = key.split(' ')[0];
      byVerb[verb] = (byVerb[verb] ?? 0) + count;
      total += count;
    }
    return { total, byVerb, byKey };
  }

  /** Calls of one verb on one resource (`pods`, `pods/log`), of one status code or whatever their code. */
  count(verb: string, resource: string, code?: number): number {
    const prefix = `${verb} ${resource} ${code ?? ''}`;
    let sum = 0;
    for (const [key, count] of this.counts) if (code === undefined ? key.startsWith(prefix) : key === prefix) sum += count;
    return sum;
  }

  total(): number {
    let sum = 0;
    for (const count of this.counts.values()) sum += count;
    return sum;
  }

  requests(): RequestRecord[] {
    return [...this.log];
  }

  reset(): void {
    this.counts = new Map();
    this.log = [];
  }
}
