import { cleanCategoryName } from '../../../src/catalog/domain/names';
import { normaliseIcon } from '../../../src/sync/diff';

describe('category name cleaning (docs/domain.md, Category names)', () => {
  it.each([
    ['短袖T恤(G5000)', '短袖T恤'],
    ['卫衣（加绒款）', '卫衣'],
    ['G5000 短袖T恤 (美版)', 'G5000 短袖T恤'],
    ['T恤（男款) 修身', 'T恤 修身'],
    ['(美版)', '(美版)'],
    // beyond the table
    ['帆布袋（大号）(TB01)', '帆布袋'],
    ['  连帽   卫衣 ', '连帽 卫衣'],
    ['卫衣（加绒（厚）款）', '卫衣'],
    ['DT6000-2 T恤', 'DT6000-2 T恤'],
    ['（）', '（）'],
  ])('%s → %s', (raw, stored) => {
    expect(cleanCategoryName(raw)).toBe(stored);
  });

  it('an empty icon counts as none', () => {
    expect(normaliseIcon('')).toBeNull();
    expect(normaliseIcon('  ')).toBeNull();
    expect(normaliseIcon(undefined)).toBeNull();
    expect(normaliseIcon('https://x/a.png')).toBe('https://x/a.png');
  });
});
