/**
 * What an operator does to users from the command line (`catalog users …`): list them, delete one,
 * set a new password. Users are a plain table, not events (docs/security.md), so these act on it
 * directly; every change that matters to a session revokes the user's tokens.
 */
import { AppError } from '../platform/errors';
import type { PasswordHasher } from './passwords';
import { registerBody } from './requests';
import type { UserListing, UserStore } from './users';

/** The operator named a user that does not exist. */
export const unknownUser = (username: string) => AppError.notFound('USER.NOT_FOUND', `no user named "${username}" (catalog users list shows them)`);

/** The rule registration applies (at least 12 characters), so a reset password is no weaker. */
export function checkNewPassword(password: string): string {
  const r = registerBody.shape.password.safeParse(password);
  if (!r.success) {
    throw AppError.badRequest('USER.PASSWORD_REFUSED', `the new password is refused: ${r.error.issues.map((i) => i.message).join('; ')}`);
  }
  return r.data;
}

export class UserOperations {
  constructor(
    private readonly users: UserStore,
    private readonly hasher: PasswordHasher,
  ) {}

  list(): Promise<UserListing[]> {
    return this.users.list();
  }

  /** The user of that name (case-insensitive), or USER.NOT_FOUND. */
  async find(username: string): Promise<UserListing> {
    const found = await this.users.findByUsername(username);
    const user = found && (await this.users.list()).find((u) => u.id === found.id);
    if (!user) throw unknownUser(username);
    return user;
  }

  /**
   * Deletes the user: its refresh-token rows go with it, and every access token it holds fails the
   * guard's user lookup from then on. Deleting the last user opens `POST /auth/register` again to
   * whoever calls it first, so that takes `force`; reset-password is the safer way back in.
   */
  async delete(username: string, opts: { force?: boolean } = {}): Promise<UserListing> {
    const user = await this.find(username);
    if ((await this.users.list()).length === 1 && !opts.force) {
      throw AppError.conflict(
        'USER.LAST_USER',
        `"${user.username}" is the only user: deleting it opens registration (POST /auth/register) to whoever calls it first; ` +
          'use reset-password to get back in, or pass --force to delete it anyway',
      );
    }
    if (!(await this.users.delete(user.id))) throw unknownUser(username);
    return user;
  }

  /** A new argon2id hash for the user, and every token issued before revoked (the old password may be known). */
  async resetPassword(username: string, password: string): Promise<UserListing> {
    const checked = checkNewPassword(password);
    const user = await this.find(username);
    if (!(await this.users.setPassword(user.id, await this.hasher.hash(checked)))) throw unknownUser(username);
    return this.find(username);
  }
}
