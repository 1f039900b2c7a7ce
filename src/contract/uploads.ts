/** POST /upload (docs/api.md, Uploads). */
import { z } from 'zod';

/** Where the stored image is served: `<API_PREFIX>/uploads/<generated name>`. */
export const uploaded = z.object({ url: z.string() });
