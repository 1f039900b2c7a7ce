/** The admin's words for schedules and prices: a cron expression never shows, a refused price says why. */
import { farChange, priceProblem, showPrice, showRatio } from '../../../web/admin/src/common/price';
import { scheduleText, whenText } from '../../../web/admin/src/common/schedule';

describe('schedules in words', () => {
  it.each([
    ['0 * * * *', '每小时整点'],
    ['15 * * * *', '每小时第 15 分'],
    ['30 2 * * *', '每天 02:30'],
    ['0 3 * * *', '每天 03:00'],
    ['*/10 * * * *', '每 10 分钟'],
    ['5 */6 * * *', '每 6 小时（第 5 分）'],
    ['0 9 * * 1', '每周一 09:00'],
    ['0 9 * * 1,5', '每周一、五 09:00'],
    ['30 4 1 * *', '每月 1 日 04:30'],
    ['0 9 * 1 *', '按自定义计划运行'],
    ['1-5 * * * *', '按自定义计划运行'],
    [null, '已关闭'],
  ])('%j reads %j', (cron, words) => {
    expect(scheduleText(cron)).toBe(words);
  });

  it('says today, tomorrow, yesterday, else the date', () => {
    const now = new Date(2026, 10, 26, 15, 0);
    expect(whenText(new Date(2026, 10, 26, 16, 0).toISOString(), now)).toBe('今天 16:00');
    expect(whenText(new Date(2026, 10, 27, 2, 30).toISOString(), now)).toBe('明天 02:30');
    expect(whenText(new Date(2026, 10, 25, 23, 5).toISOString(), now)).toBe('昨天 23:05');
    expect(whenText(new Date(2026, 11, 3, 8, 0).toISOString(), now)).toBe('12月3日 08:00');
    expect(whenText(null, now)).toBe('—');
  });
});

describe('prices as typed', () => {
  it.each([
    ['abc', '请输入数字金额，如 59.90'],
    ['59.', '请输入数字金额，如 59.90'],
    ['-5', '请输入数字金额，如 59.90'],
    ['59.999', '最多两位小数，如 59.99'],
    ['0', '价格须大于 0'],
    ['0.00', '价格须大于 0'],
    ['', '请输入价格'],
    ['1234567890123', '金额太大'],
  ])('%j is refused: %s', (typed, why) => {
    expect(priceProblem(typed)).toBe(why);
  });

  it.each(['59.9', '59.90', '0.01', ' 12 ', '100'])('%j can be sent', (typed) => {
    expect(priceProblem(typed)).toBeNull();
  });

  it('shows two decimals and a dash for none', () => {
    expect(showPrice('59.9')).toBe('¥59.90');
    expect(showPrice(null)).toBe('—');
  });

  it.each([
    // A typo: far from the price and from the automatic one.
    ['99999999', ['59.90'], { ref: '59.90', ratio: 99999999 / 59.9 }],
    ['5.99', ['59.90', '59.90'], { ref: '59.90', ratio: 5.99 / 59.9 }],
    // Just past ×3 and ÷3.
    ['30.01', ['10'], { ref: '10', ratio: 3.001 }],
    ['3.33', ['10'], { ref: '10', ratio: 0.333 }],
  ] as const)('%s against %j is far: asked before saving', (next, refs, far) => {
    const got = farChange(next, refs);
    expect(got?.ref).toBe(far.ref);
    expect(got?.ratio).toBeCloseTo(far.ratio, 6);
  });

  it.each([
    ['30', ['10']],
    ['3.34', ['10']],
    // A manual price of 599.00 put back near its automatic 59.90: near one of them is enough.
    ['59.90', ['599.00', '59.90']],
  ] as const)('%s against %j is near: saved without a question', (next, refs) => {
    expect(farChange(next, refs)).toBeNull();
  });

  it('says a ratio in a few figures', () => {
    expect(showRatio(1669449.08)).toBe('1669449');
    expect(showRatio(3.0012)).toBe('3');
    expect(showRatio(0.04171)).toBe('0.042');
  });
});
