/**
 * Where uploaded files are kept: a small port with two adapters. `postgres` (the default) keeps the
 * bytes in the database, so every API process behind a load balancer serves every file; `disk` keeps
 * them under UPLOAD_DIR, for a single process. Files an older version wrote to UPLOAD_DIR are still
 * served under postgres storage (read from the folder when the table does not have them).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Queryable } from '../platform/db';

export interface StoredFile {
  bytes: Buffer;
  contentType: string;
  /** a strong validator of the bytes */
  etag: string;
  storedAt: Date;
}

export interface UploadStorage {
  readonly kind: 'postgres' | 'disk';
  /** Stores a new file under a name never used before. */
  put(name: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The file, or null when there is none by that name. */
  get(name: string): Promise<StoredFile | null>;
}

const CONTENT_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' };

/** The content's SHA-256 (kept with a stored file), and the ETag made of it: the same from either storage. */
const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64url');
const etagOf = (sha256: string) => `"${sha256.slice(0, 32)}"`;

export function contentTypeOf(name: string): string {
  return CONTENT_TYPES[path.extname(name).slice(1)] ?? 'application/octet-stream';
}

export class DiskUploadStorage implements UploadStorage {
  readonly kind = 'disk' as const;
  constructor(private readonly dir: string) {}

  async put(name: string, bytes: Buffer): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    // `wx`: a generated name never overwrites anything.
    await writeFile(path.join(this.dir, name), bytes, { flag: 'wx', mode: 0o644 });
  }

  async get(name: string): Promise<StoredFile | null> {
    const file = path.join(this.dir, path.basename(name));
    try {
      const [bytes, st] = await Promise.all([readFile(file), stat(file)]);
      return { bytes, contentType: contentTypeOf(name), etag: etagOf(sha256Of(bytes)), storedAt: st.mtime };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'EISDIR') return null;
      throw e;
    }
  }
}

export class PostgresUploadStorage implements UploadStorage {
  readonly kind = 'postgres' as const;
  private readonly legacy: DiskUploadStorage;

  /** `legacyDir`: UPLOAD_DIR, where files stored before the table existed still are. */
  constructor(
    private readonly db: Queryable,
    legacyDir: string,
  ) {
    this.legacy = new DiskUploadStorage(legacyDir);
  }

  async put(name: string, bytes: Buffer, contentType: string): Promise<void> {
    const sha256 = sha256Of(bytes);
    await this.db.query(`INSERT INTO uploads (name, content_type, bytes, sha256) VALUES ($1, $2, $3, $4)`, [name, contentType, bytes, sha256]);
  }

  async get(name: string): Promise<StoredFile | null> {
    const r = await this.db.query<{ content_type: string; bytes: Buffer; sha256: string; created_at: Date }>(
      `SELECT content_type, bytes, sha256, created_at FROM uploads WHERE name = $1`,
      [name],
    );
    const row = r.rows[0];
    if (!row) return this.legacy.get(name);
    return { bytes: row.bytes, contentType: row.content_type, etag: etagOf(row.sha256), storedAt: row.created_at };
  }
}
