/** Request shapes of /positions (docs/api.md: `POST {name, sortOrder?, goodIds}`; PATCH the same, partial). */
import { z } from 'zod';
import { pageQuery } from '../../platform/http/pagination';
import { idSchema } from '../../platform/ids';
import { nameField, sortOrderField } from '../request-fields';

const goodIdsField = z.array(idSchema).max(1000);

export const createPositionBody = z.object({ name: nameField(), sortOrder: sortOrderField.default(0), goodIds: goodIdsField }).strict();
export type CreatePositionBody = z.infer<typeof createPositionBody>;

export const updatePositionBody = z.object({ name: nameField().optional(), sortOrder: sortOrderField.optional(), goodIds: goodIdsField.optional() }).strict();
export type UpdatePositionBody = z.infer<typeof updatePositionBody>;

export const listPositionsQuery = pageQuery;
export type ListPositionsQuery = z.infer<typeof listPositionsQuery>;
