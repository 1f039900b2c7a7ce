/** What the admin writes answer besides the resource itself (docs/http-contract.md, Revisions). */
import { z } from 'zod';

/**
 * 202: the write is appended, but the read models did not show it within COMMAND_WAIT_MS; the
 * next read shows it. `revision`: the stream revision the write left (null: nothing was appended).
 */
export const accepted = z
  .object({ id: z.string(), revision: z.string().nullable() })
  .meta({ id: 'Accepted', description: 'Written; the read models do not show it yet (docs/http-contract.md, Revisions)', example: { id: '385153753948357094', revision: '4' } });
export type Accepted = z.infer<typeof accepted>;

/** PATCH /<resource>/sort: the order as it is now. */
export const order = z
  .object({ ids: z.array(z.string()), parentId: z.string().nullable().optional().meta({ description: 'categories: the parent whose children these are (null: the top level)' }) })
  .meta({ id: 'Order' });
