/**
 * Given/when/then for pure deciders: given the events already in a stream, when a command is
 * decided, then these events (or this error) come out. No database, no clock.
 *
 *   const spec = decider({ initial, evolve, decide });
 *   spec.given([{ type: 'TagCreated', data }]).when(command).then([{ type: 'TagUpdated', data }]);
 *   spec.given([]).when(command).thenFails('TAG.NOT_FOUND', 404);
 */
import { AppError } from '../../src/platform/errors';
import type { AnyEvent } from '../../src/platform/events/registry';

/**
 * A slice's pure decider. `E` is the union of the events its stream holds, taken from `evolve`: an
 * event of another slice, or data of the wrong shape, in `given` or `then` does not compile.
 */
export interface Decider<S, C, E extends AnyEvent> {
  initial: () => S;
  evolve: (state: S, event: E) => S;
  decide: (state: S, command: C) => readonly NoInfer<E>[];
}

export interface Then<E extends AnyEvent> {
  then(expected: readonly E[]): void;
  /** the decision throws an AppError with this code (and status, when given); answers it for more checks */
  thenFails(code: string, status?: number): AppError;
}

export function decider<S, C, E extends AnyEvent>(d: Decider<S, C, E>) {
  return {
    /** the state the given events fold into (for evolve tests) */
    stateAfter(events: readonly E[]): S {
      return events.reduce(d.evolve, d.initial());
    },
    given(events: readonly E[]) {
      const state = events.reduce(d.evolve, d.initial());
      return {
        when(command: C): Then<E> {
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
