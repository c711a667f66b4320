import { DataErrorCodes, ID_LENGTH } from '@antidote/contracts';
import { DuplicateError } from './data.errors.js';
import { describe, expect, it } from 'vitest';
import { withFreshId } from './fresh-id.js';

const exhausted = () => new Error('exhausted');

describe('withFreshId', () => {
  it('tries a new id after an id collision, by the error code', async () => {
    const tried: string[] = [];
    const id = await withFreshId((candidate) => {
      tried.push(candidate);
      return tried.length < 3
        ? Promise.reject(new DuplicateError(`Livelesson ${candidate} already exists`, DataErrorCodes.idTaken))
        : Promise.resolve(candidate);
    }, exhausted);
    expect(tried).toHaveLength(3);
    expect(new Set(tried).size).toBe(3);
    expect(id).toHaveLength(ID_LENGTH);
  });

  it('passes any other duplicate on at once, whatever its message says', async () => {
    let calls = 0;
    const duplicate = new DuplicateError('Livelesson x already exists', DataErrorCodes.duplicate);
    await expect(withFreshId(() => Promise.reject(duplicate).finally(() => calls++), exhausted)).rejects.toBe(duplicate);
    expect(calls).toBe(1);
  });

  it('gives up after the attempts with the caller error', async () => {
    const taken = (id: string) => Promise.reject(new DuplicateError(`${id} taken`, DataErrorCodes.idTaken));
    await expect(withFreshId(taken, exhausted, 4)).rejects.toThrow('exhausted');
  });
});
