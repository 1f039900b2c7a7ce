/**
 * Type-level checks of typed events, compiled by `tsc --noEmit` (tsconfig.json includes test/; the
 * unit test test/unit/platform/events/typed-events.test.ts checks that this file stays included).
 * Nothing here runs: each `@ts-expect-error` line is a mistake the compiler must refuse, and the
 * check fails ("unused directive") the day it accepts one.
 */
import { runCommand, type CommandDeps, type PendingEvent } from '../../src/platform/commands';
import type { DecodedEvent } from '../../src/platform/events/registry';
import { defineBatchProjection, defineProjection } from '../../src/platform/projections/definition';
import { decideTag } from '../../src/catalog/tags/decide';
import { evolveTag, initialTag, type TagState } from '../../src/catalog/tags/state';
import { decider } from '../support/given-when-then';
import { tagEvents, type TagEvent } from '../../src/catalog/tags/events';
import { tagStream } from '../../src/catalog/tags/handle';
import type { CategoryAdminEvent } from '../../src/catalog/categories/admin-events';
import type { TagGroupEvent } from '../../src/catalog/tag-groups/events';

declare const deps: CommandDeps;
declare const state: TagState;
const ID = '1125899906842625001';
const fields = { groupId: ID, name: 'Red', sortOrder: 0, color: null };

export function decisions(): void {
  // A decision returns its slice's events: the right type with its data is accepted...
  const created: TagEvent[] = [{ type: 'TagCreated', data: { tagId: ID, ...fields } }];
  // ...another slice's event is not,
  // @ts-expect-error TagGroupCreated is no tag event
  const otherSlice: TagEvent[] = [{ type: 'TagGroupCreated', data: { tagGroupId: ID, name: 'Colour', dimension: 'color' } }];
  // nor data missing a field,
  // @ts-expect-error TagCreated needs groupId, name, sortOrder and color
  const missing: TagEvent[] = [{ type: 'TagCreated', data: { tagId: ID } }];
  // nor data of another type's shape,
  // @ts-expect-error TagsReordered carries tagIds, not a tagId
  const wrongShape: TagEvent[] = [{ type: 'TagsReordered', data: { tagId: ID } }];
  // nor a field of the wrong type.
  // @ts-expect-error sortOrder is a number
  const wrongField: TagEvent[] = [{ type: 'TagCreated', data: { tagId: ID, ...fields, sortOrder: '0' } }];
  // An administrators' decision on categories cannot append the supplier mirror's events.
  // @ts-expect-error CategoryRemovedUpstream is the mirror's
  const mirrors: CategoryAdminEvent[] = [{ type: 'CategoryRemovedUpstream', data: { categoryId: ID } }];
  // Untyped callers still compile: PendingEvent without a type argument is any event.
  const untyped: PendingEvent[] = [{ type: 'Anything', data: { at: 1 } }];
  void [created, otherSlice, missing, wrongShape, wrongField, mirrors, untyped];
}

export async function commands(): Promise<void> {
  // runCommand takes the events from the stream spec: the tag decision fits the tag stream...
  const result = await runCommand(deps, tagStream(ID), {
    name: 'CreateTag',
    actor: { by: 'system:test' },
    decide: (s) => decideTag(s, { type: 'DeleteTag', tagId: ID, usage: { counts: {}, blockedBy: [] } }),
  });
  const events: TagEvent[] = result.events;
  // ...a decision returning another slice's events does not,
  const groupDecision = (): TagGroupEvent[] => [{ type: 'TagGroupDeleted', data: { tagGroupId: ID } }];
  // @ts-expect-error tag group events on a tag stream
  await runCommand(deps, tagStream(ID), { name: 'DeleteTagGroup', actor: { by: 'system:test' }, decide: groupDecision });
  // nor an inline event with the wrong data.
  // @ts-expect-error TagDeleted carries a tagId
  await runCommand(deps, tagStream(ID), { name: 'DeleteTag', actor: { by: 'system:test' }, decide: () => [{ type: 'TagDeleted', data: { tagGroupId: ID } }] });
  void [events, state];
}

const base = { name: 'types_only', streamPrefixes: ['tag-'], tables: ['types_only'], domains: [] } as const;

export const handlerMaps = [
  // A handler map covers every event of its union, each handler getting its own event's data.
  defineProjection<TagEvent>({
    ...base,
    on: {
      async TagCreated(_db, e) {
        const groupId: string = e.data.groupId;
        // @ts-expect-error a TagCreated has no tagIds
        void e.data.tagIds;
        void groupId;
      },
      async TagUpdated() {},
      async TagDeleted() {},
      async TagsReordered(_db, e) {
        const ids: string[] = e.data.tagIds;
        void ids;
      },
    },
  }),
  defineProjection<TagEvent>({
    ...base,
    // @ts-expect-error TagsReordered has no handler
    on: { async TagCreated() {}, async TagUpdated() {}, async TagDeleted() {} },
  }),
  defineProjection<TagEvent>({
    ...base,
    // @ts-expect-error a handler for an event outside the union
    on: { async TagCreated() {}, async TagUpdated() {}, async TagDeleted() {}, async TagsReordered() {}, async TagGroupCreated() {} },
  }),
  // Without the event union, no handler is accepted (its handles would be unchecked).
  // @ts-expect-error no type argument
  defineProjection({ ...base, on: { async TagCreated() {} } }),
];

export const batchProjection = defineBatchProjection({
  ...base,
  events: tagEvents,
  async applyBatch(_db, events) {
    for (const e of events) {
      // eslint-disable-next-line @typescript-eslint/switch-exhaustiveness-check -- TagsReordered is left out on purpose: the compiler must see it below
      switch (e.type) {
        case 'TagCreated':
        case 'TagUpdated':
        case 'TagDeleted':
          break;
        default: {
          // @ts-expect-error TagsReordered falls through to the never check
          const _exhaustive: never = e;
        }
      }
    }
  },
});

/** A decoded event over a union narrows its data by its type. */
export function narrowing(e: DecodedEvent<TagEvent>): string[] {
  if (e.type === 'TagsReordered') return e.data.tagIds;
  // @ts-expect-error only TagsReordered carries tagIds
  return e.data.tagIds;
}

/** A fold and a given/when/then test take their slice's events only. */
export function folds(): void {
  evolveTag(initialTag(), { type: 'TagCreated', data: { tagId: ID, ...fields } });
  // @ts-expect-error a misspelt event type does not fold to nothing: it does not compile
  evolveTag(initialTag(), { type: 'TagCreatd', data: { tagId: ID, ...fields } });
  const spec = decider({ initial: initialTag, evolve: evolveTag, decide: decideTag });
  // @ts-expect-error another slice's event in `given`
  spec.given([{ type: 'TagGroupCreated', data: { tagGroupId: ID, name: 'Colour', dimension: 'color' } }]);
  const deleted = spec.given([]).when({ type: 'DeleteTag', tagId: ID, usage: { counts: {}, blockedBy: [] } });
  // @ts-expect-error data of the wrong shape in `then`
  deleted.then([{ type: 'TagDeleted', data: { tagGroupId: ID } }]);
}
