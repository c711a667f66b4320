/** One warm pool as `GET /exp/admin/pools` reports it (`antictl pool list`). */
export interface PoolSummary {
  lesson: string;
  /** `fixed`: the config's size; `adaptive`: sized by the scheduler within min..max; `override`: an operator's size (`antictl pool resize`). */
  mode: 'fixed' | 'adaptive' | 'override';
  /** Members kept READY (fixed and override pools). */
  size?: number;
  /** Bounds of an adaptive pool. */
  min?: number;
  max?: number;
  /** Seconds a READY member may wait unclaimed (0 = forever). */
  maxAge: number;
  /** Members a request would claim now. */
  ready: number;
  /** Members still being built. */
  building: number;
  /** Members failed or being deleted. */
  retiring: number;
}

/** `PUT /exp/admin/pools/:slug` (`antictl pool resize`): the pool's size from now on (0 drains it), and optionally its maxAge in seconds. */
export interface PoolResize {
  size: number;
  maxAge?: number;
}
