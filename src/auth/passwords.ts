/**
 * Password hashing: argon2id with OWASP's minimum parameters (19 MiB, 2 passes, 1 lane). The
 * parameters are stored inside each PHC hash string, so raising them later keeps old hashes valid.
 */
import { randomBytes } from 'node:crypto';
import argon2 from 'argon2';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** false for a wrong password and for a malformed hash; never throws for either */
  verify(hash: string, password: string): Promise<boolean>;
}

const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const argon2Hasher: PasswordHasher = {
  hash: (password) => argon2.hash(password, OPTIONS),
  async verify(hash, password) {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  },
};

/**
 * A hash of a random password with the same parameters. Login verifies against it when the user does
 * not exist, so an unknown name costs one argon2 verification, like a wrong password does, and the
 * answer time does not tell whether an account exists.
 */
export function dummyHash(hasher: PasswordHasher): Promise<string> {
  return hasher.hash(randomBytes(32).toString('base64url'));
}
