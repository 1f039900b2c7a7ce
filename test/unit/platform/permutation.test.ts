import { permutationProblems } from '../../../src/platform/permutation';

describe('permutationProblems', () => {
  it('a reordering of the same ids is fine, including the empty one', () => {
    expect(permutationProblems(['1', '2', '3'], ['2', '3', '1'])).toBeNull();
    expect(permutationProblems([], [])).toBeNull();
  });

  it('names missing, unknown and duplicated ids, each once', () => {
    expect(permutationProblems(['1', '2', '3'], ['1', '1', '1', '4', '4'])).toEqual({ missing: ['2', '3'], unknown: ['4'], duplicated: ['1', '4'] });
  });
});
