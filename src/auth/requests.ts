/**
 * Request shapes of /auth (docs/security.md), each next to its type: the routes parse them, and the
 * operator's password reset applies registration's password rule.
 */
import { z } from 'zod';

export const registerBody = z
  .object({
    username: z
      .string()
      .trim()
      .min(3)
      .max(64)
      .regex(/^[\p{L}\p{N}._@-]+$/u, 'letters, digits and . _ @ - only'),
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
