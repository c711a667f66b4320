import { describe, expect, it } from 'vitest';
import { AddressPool } from './address-pool.js';

describe('AddressPool', () => {
  it('hands out distinct addresses of its /16 in turn', () => {
    const pool = new AddressPool('127.42');
    expect([pool.allocate(), pool.allocate(), pool.allocate()]).toEqual(['127.42.0.1', '127.42.0.2', '127.42.0.3']);
    const many = Array.from({ length: 600 }, () => pool.allocate());
    expect(new Set(many).size).toBe(600);
    expect(many.at(-1)).toBe('127.42.2.103');
  });

  it('gives a released address again only after every other one', () => {
    const pool = new AddressPool('127.42');
    const first = pool.allocate();
    pool.release(first);
    const next = Array.from({ length: 1000 }, () => pool.allocate());
    expect(next).not.toContain(first);
    expect(pool.used).toBe(1000);
  });

  it('wraps around past the end, skipping what is still in use, and says when the /16 is full', () => {
    const pool = new AddressPool('127.42');
    const all = Array.from({ length: 250 * 250 }, () => pool.allocate());
    expect(() => pool.allocate()).toThrow(/exhausted/);
    pool.release(all[7]);
    pool.release(all[3]);
    expect([pool.allocate(), pool.allocate()]).toEqual([all[3], all[7]]);
  });
});
