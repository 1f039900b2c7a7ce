/** Users as the auth routes answer them (docs/api.md, Authentication). */
import { z } from 'zod';

/** The signed-in administrator (GET /auth/me, POST /auth/login). */
export const user = z
  .object({
    id: z.string(),
    username: z.string(),
    // As the users table holds it: the service grants ADMIN only, and answers any other role it finds.
    role: z.string().meta({ description: '`ADMIN`, the role the service grants; another role set by an operator is answered as it is', example: 'ADMIN' }),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof user>;

/** POST /auth/register, /auth/login, /auth/refresh, GET /auth/me. */
export const userAnswer = z.object({ user });

/** GET /users: who the users are, by the ids events and runs record. */
export const userList = z.object({ items: z.array(z.object({ id: z.string(), username: z.string() })) });
