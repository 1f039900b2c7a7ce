/**
 * Request shapes of /auth (docs/security.md), each next to its type: the routes parse them, and the
 * operator's password reset applies registration's password rule.
 */
import { z } from 'zod';

/** Letters and digits of any script, and `. _ @ -`. */
export const USERNAME = /^[\p{L}\p{N}._@-]+$/u;

export const registerBody = z
  .object({
    username: z
      .string()
      .trim()
      .min(3)
      .max(64)
      .regex(USERNAME, 'letters, digits and . _ @ - only')
      // The description's pattern is the expression's source: JSON Schema patterns are read as Unicode ones.
      .meta({ pattern: USERNAME.source }),
    // docs/security.md: at least 12 characters. The upper bound keeps one argon2 call from becoming a DoS lever.
    password: z.string().min(12).max(1024),
  })
  .strict();
export type RegisterBody = z.infer<typeof registerBody>;

export const loginBody = z
  .object({
    username: z.string().max(256),
    password: z.string().max(1024),
  })
  .strict();
export type LoginBody = z.infer<typeof loginBody>;
