/** One warm pool as `GET /exp/admin/pools` reports it (`antictl pool list`). */
export interface PoolSummary {
  lesson: string;
  size: number;
  /** Seconds a READY member may wait unclaimed (0 = forever). */
  maxAge: number;
  /** Members a request would claim now. */
  ready: number;
  /** Members still being built. */
  building: number;
  /** Members failed or being deleted. */
  retiring: number;
}
