import { randomInt } from 'node:crypto';
import { DataErrorCodes, ID_ALPHABET, ID_LENGTH } from '@antidote/contracts';
import { DuplicateError } from './data.errors.js';

/** A random id over the original's alphabet, from the cryptographic generator. */
export function randomId(length = ID_LENGTH): string {
  let id = '';
  for (let i = 0; i < length; i++) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
  return id;
}

/**
 * Runs `create` with fresh ids until one is not taken (the database's unique key is the collision
 * check), at most `attempts` times. Any other failure, a duplicate of another kind included, is thrown.
 */
export async function withFreshId<T>(create: (id: string) => Promise<T>, onExhausted: () => Error, attempts = 5): Promise<T> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      return await create(randomId());
    } catch (error) {
      if (!(error instanceof DuplicateError) || error.code !== DataErrorCodes.idTaken) throw error;
    }
  }
  throw onExhausted();
}
