/**
 * Every read-model projection of the service. Each file holds one: its name, the events it handles,
 * the tables it owns (created by migrations) and the SQL per event.
 */
import type { ProjectionDefinition } from '../src/platform/projections/definition';
import { catalogTreeProjection } from './catalog-tree';
import { positionsProjection } from './positions';
import { tagsProjection } from './tags';
import { catalogProjection } from './catalog';

export function allProjections(): ProjectionDefinition[] {
  return [catalogTreeProjection, catalogProjection, tagsProjection, positionsProjection];
}
