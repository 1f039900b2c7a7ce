/**
 * Given/when/then for pure deciders: given the events already in a stream, when a command is
 * decided, then these events (or this error) come out. No database, no clock.
 *
 *   const spec = decider({ initial, evolve, decide });
 *   spec.given([{ type: 'TagCreated', data }]).when(command).then([{ type: 'TagUpdated', data }]);
 *   spec.given([]).when(command).thenFails('TAG.NOT_FOUND', 404);
 */
import { AppError } from '../../src/platform/errors';
import type { PendingEvent } from '../../src/platform/commands';

export interface Decider<S, C> {
  initial: () => S;
  evolve: (state: S, event: { type: string; data: unknown }) => S;
  decide: (state: S, command: C) => PendingEvent[];
}

export interface Then {
  then(expected: PendingEvent[]): void;
  /** the decision throws an AppError with this code (and status, when given); answers it for more checks */
  thenFails(code: string, status?: number): AppError;
}

export function decider<S, C>(d: Decider<S, C>) {
  return {
    /** the state the given events fold into (for evolve tests) */
    stateAfter(events: readonly PendingEvent[]): S {
      return events.reduce(d.evolve, d.initial());
    },
    given(events: readonly PendingEvent[]) {
      const state = events.reduce(d.evolve, d.initial());
      return {
        when(command: C): Then {
          const run = () => d.decide(state, command);
          return {
            then(expected) {
              expect(run()).toEqual(expected);
            },
            thenFails(code, status) {
              let caught: unknown;
              try {
                run();
              } catch (e) {
                caught = e;
              }
              expect(caught).toBeInstanceOf(AppError);
              const err = caught as AppError;
              expect(err.code).toBe(code);
              if (status !== undefined) expect(err.status).toBe(status);
              return err;
            },
          };
        },
      };
    },
  };
}
