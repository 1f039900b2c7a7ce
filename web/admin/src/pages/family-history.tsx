import type { Family } from '../../../../src/contract/families';
import { History } from '../common/history/history';

type Then = Family & { public?: boolean; representative?: { name: string } | null };

/** A family's history (docs/api.md, History), and the family as it was at a row's time. */
export function FamilyHistory({ id }: { id: string }) {
  return (
    <History<Then>
      subject={{
        kind: 'family',
        path: `/product-families/${id}`,
        noun: '系列',
        key: 'family',
        changesLabel: '店铺看到的变化',
        unchanged: '店铺看到的内容没有变化',
        snapshot: (f) => (
          <p>
            名称：<b data-testid="snapshot-name">{f.name}</b> · <span data-testid="snapshot-locked">{f.locked ? '锁定' : '未锁定'}</span> · 货源 {f.members?.length ?? 0} 个 ·
            自定义成员 {f.customMembers?.length ?? 0} 个 · 价格表 {f.priceMatrix?.cells.length ?? 0} 个规格 · 手动价格 {f.overrides?.length ?? 0} 个 · 最低价{' '}
            <span data-testid="snapshot-lowest">{f.lowestPrice ?? '—'}</span> · {f.public ? `店铺中展示（代表商品「${f.representative?.name ?? '—'}」）` : '店铺中未展示'}
          </p>
        ),
      }}
    />
  );
}
