/**
 * Users: a plain table (migrations/003_users.sql). Rows are checked with zod at the boundary.
 */
import { z } from 'zod';
import { withTransaction, type Pool, type Queryable } from '../platform/db';
import { newId } from '../platform/ids';

/** The Role enum (docs/security.md, Users and roles). Widening it means widening the CHECK in the migration too. */
export const ROLES = ['ADMIN'] as const;
export type Role = (typeof ROLES)[number];

const userRow = z.object({
  id: z.string(),
  username: z.string(),
  password_hash: z.string(),
  // kept as a string here: a role this build does not know must fail the guard (403), not the parse
  role: z.string(),
  token_version: z.number().int(),
});

export interface User {
  id: string;
  username: string;
  role: string;
  tokenVersion: number;
}

/** A user as an operator lists it. */
export interface UserListing {
  id: string;
  username: string;
  role: string;
  createdAt: string;
  updatedAt: string;
}

export interface UserWithHash extends User {
  passwordHash: string;
}

const toUser = (r: unknown): UserWithHash => {
  const row = userRow.parse(r);
  return { id: row.id, username: row.username, role: row.role, tokenVersion: row.token_version, passwordHash: row.password_hash };
};

/** The public view of a user: what `/auth/me`, login and registration answer. */
export const publicUser = (u: User) => ({ id: u.id, username: u.username, role: u.role });

const COLUMNS = 'id, username, password_hash, role, token_version';

/** Serialises first registrations: every would-be first user queues here, inside its transaction. */
const FIRST_USER_LOCK = "hashtext('auth:first-user')";

export class UserStore {
  constructor(private readonly pool: Pool) {}

  async findById(id: string, db: Queryable = this.pool): Promise<UserWithHash | null> {
    const r = await db.query(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id]);
    return r.rows[0] ? toUser(r.rows[0]) : null;
  }

  /** The row, locked until the caller's transaction ends. */
  async lockById(id: string, tx: Queryable): Promise<UserWithHash | null> {
    const r = await tx.query(`SELECT ${COLUMNS} FROM users WHERE id = $1 FOR UPDATE`, [id]);
    return r.rows[0] ? toUser(r.rows[0]) : null;
  }

  async findByUsername(username: string): Promise<UserWithHash | null> {
    const r = await this.pool.query(`SELECT ${COLUMNS} FROM users WHERE lower(username) = lower($1)`, [username]);
    return r.rows[0] ? toUser(r.rows[0]) : null;
  }

  async any(): Promise<boolean> {
    const r = await this.pool.query(`SELECT EXISTS (SELECT 1 FROM users) AS any`);
    return r.rows[0].any === true;
  }

  /**
   * Creates the user only if no user exists yet; null when one does. The advisory lock is taken in
   * the transaction, so of any number of concurrent first registrations exactly one inserts and the
   * others see its row when they get the lock.
   */
  async createFirst(username: string, passwordHash: string, role: Role = 'ADMIN'): Promise<User | null> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SELECT pg_advisory_xact_lock(${FIRST_USER_LOCK})`);
      const exists = await client.query(`SELECT EXISTS (SELECT 1 FROM users) AS any`);
      if (exists.rows[0].any === true) {
        await client.query('ROLLBACK');
        return null;
      }
      const r = await client.query(`INSERT INTO users (id, username, password_hash, role) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`, [newId(), username, passwordHash, role]);
      await client.query('COMMIT');
      const { passwordHash: _hidden, ...user } = toUser(r.rows[0]);
      return user;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
  }

  /** Revokes every token issued to the user so far; refresh-token rows of the old version go with them. */
  async bumpTokenVersion(userId: string, db: Queryable = this.pool): Promise<void> {
    await db.query(`UPDATE users SET token_version = token_version + 1, updated_at = now() WHERE id = $1`, [userId]);
    await db.query(`DELETE FROM refresh_tokens WHERE user_id = $1`, [userId]);
  }

  /** Deleting a user invalidates its tokens: the guard finds no user (and refresh rows cascade). */
  async delete(userId: string): Promise<boolean> {
    const r = await this.pool.query(`DELETE FROM users WHERE id = $1`, [userId]);
    return (r.rowCount ?? 0) > 0;
  }

  /** Every user, oldest first, without the hashes: what `catalog users list` shows. */
  async list(): Promise<UserListing[]> {
    const r = await this.pool.query<{ id: string; username: string; role: string; created_at: Date; updated_at: Date }>(
      `SELECT id::text AS id, username, role, created_at, updated_at FROM users ORDER BY created_at, id`,
    );
    return r.rows.map((row) => ({ id: row.id, username: row.username, role: row.role, createdAt: row.created_at.toISOString(), updatedAt: row.updated_at.toISOString() }));
  }

  /**
   * Sets a new password hash and revokes every token issued before, in one transaction: a password is
   * reset because it was lost or may be known to someone else, and sessions opened with it end too.
   */
  async setPassword(userId: string, passwordHash: string): Promise<boolean> {
    return withTransaction(this.pool, async (c) => {
      const r = await c.query(`UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1`, [userId, passwordHash]);
      if ((r.rowCount ?? 0) === 0) return false;
      await this.bumpTokenVersion(userId, c);
      return true;
    });
  }
}
