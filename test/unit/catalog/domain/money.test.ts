import { compareMoney, isMoney, minMoney, normaliseMoney } from '../../../../src/catalog/domain/money';

describe('money is an exact decimal string (docs/domain.md, Identifiers and money)', () => {
  it.each([
    ['39.9', '39.90'],
    ['39', '39.00'],
    ['39.10', '39.10'],
    ['39.900', '39.90'],
    ['39.900000', '39.90'],
    ['1.2345', '1.2345'],
    ['1.23450', '1.2345'],
    ['1.234', '1.234'],
    ['007.5', '7.50'],
    ['0', '0.00'],
    ['0.0001', '0.0001'],
    ['-0.00', '0.00'],
    ['-1.5', '-1.50'],
    ['12345678901234567890.5', '12345678901234567890.50'],
  ])('given the amount %j, when stored, then it reads %j (two decimals at least, four at most)', (amount, stored) => {
    expect(normaliseMoney(amount)).toBe(stored);
  });

  it.each(['1.23456', 'abc', '', '1e3', '.5', '5.', ' 5', '1,5', '+5', '0x10'])('given %j, when stored, then it is refused with a 400 (not rounded, not guessed)', (amount) => {
    expect(() => normaliseMoney(amount)).toThrow(expect.objectContaining({ status: 400 }));
  });

  it.each([
    ['39.90', true],
    ['39.9', true],
    ['39', true],
    ['-1.5', true],
    ['0.0001', true],
    ['1.23450', true],
    ['1.23456', false],
    ['1e3', false],
    ['.5', false],
    ['', false],
    [39.9, false], // a float is never money
    [null, false],
  ])('given %j, then it is money: %s', (value, expected) => {
    expect(isMoney(value)).toBe(expected);
  });

  it.each([
    ['39.9', '39.10', 1],
    ['39.10', '39.9', -1],
    ['39.90', '39.9', 0],
    ['9', '10', -1],
    ['100.00', '99.999', 1],
    ['0.1', '0.09', 1],
    ['-1', '0.5', -1],
    ['-1.5', '-1.25', -1],
    ['0.3', '0.30000', 0],
    ['12345678901234567890.01', '12345678901234567890.001', 1],
  ])('given %j and %j, when compared by value, then %i', (a, b, expected) => {
    expect(compareMoney(a, b)).toBe(expected);
  });

  it.each([
    [['39.9', '39.10', '40'], '39.10'],
    [['10', '9'], '9'],
    [['39.90', '39.9'], '39.90'], // equal amounts: the first as written
    [['0.30', '0.1', '0.2'], '0.1'],
    [[], null],
  ])('given the amounts %j, then the lowest is %j', (list, lowest) => {
    expect(minMoney(list)).toBe(lowest);
  });

  it('given a list with one malformed amount, then the lowest is refused', () => {
    expect(() => minMoney(['abc'])).toThrow(expect.objectContaining({ code: 'MONEY.INVALID' }));
  });
});
