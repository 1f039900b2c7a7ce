import type { PositionEvent } from '../../../../src/catalog/positions/events';
import { decidePosition } from '../../../../src/catalog/positions/decide';
import { evolvePosition, initialPosition } from '../../../../src/catalog/positions/state';
import { decider } from '../../../support/given-when-then';

const spec = decider({ initial: initialPosition, evolve: evolvePosition, decide: decidePosition });
const P = '1125899906842626001';
const fields = { name: 'Hot', sortOrder: 0, goodIds: ['11', '12'] };
const created = { type: 'PositionCreated', data: { positionId: P, ...fields } } satisfies PositionEvent;
describe('position decisions', () => {
  it('given nothing, a position is created with its goods in order', () => {
    spec.given([]).when({ type: 'CreatePosition', positionId: P, fields }).then([created]);
  });

  it('a good placed twice is 400 POSITION.DUPLICATE_GOODS', () => {
    const err = spec
      .given([])
      .when({ type: 'CreatePosition', positionId: P, fields: { ...fields, goodIds: ['11', '12', '11'] } })
      .thenFails('POSITION.DUPLICATE_GOODS', 400);
    expect(err.details).toEqual({ duplicated: ['11'] });
  });

  it('an update records only what changed; the goods list is compared in order', () => {
    spec
      .given([created])
      .when({ type: 'UpdatePosition', positionId: P, changes: { name: 'Hot', goodIds: ['12', '11'] } })
      .then([{ type: 'PositionUpdated', data: { positionId: P, goodIds: ['12', '11'] } }]);
    spec
      .given([created])
      .when({ type: 'UpdatePosition', positionId: P, changes: { goodIds: ['11', '12'], sortOrder: 0 } })
      .then([]);
  });

  it('the state follows updates', () => {
    expect(spec.stateAfter([created, { type: 'PositionUpdated', data: { positionId: P, sortOrder: 3 } }])).toEqual({ status: 'active', id: P, ...fields, sortOrder: 3 });
  });

  it('an unknown or deleted position is 404 POSITION.NOT_FOUND', () => {
    spec
      .given([])
      .when({ type: 'UpdatePosition', positionId: P, changes: { name: 'x' } })
      .thenFails('POSITION.NOT_FOUND', 404);
    spec
      .given([created, { type: 'PositionDeleted', data: { positionId: P } }])
      .when({ type: 'DeletePosition', positionId: P })
      .thenFails('POSITION.NOT_FOUND', 404);
  });

  it('a live position is deleted', () => {
    spec
      .given([created])
      .when({ type: 'DeletePosition', positionId: P })
      .then([{ type: 'PositionDeleted', data: { positionId: P } }]);
  });
});
