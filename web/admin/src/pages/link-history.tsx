import { History } from '../common/history/history';
import { showPrice } from '../common/price';

/** A link as it was (docs/api.md, History: `GET /origin-goods/:id/history?at=`). */
interface Then {
  name: string;
  price: string;
  delisted: boolean;
  parsed: unknown;
  familyId: string | null;
  goodId: string | null;
}

/** A link's history: its syncs, its organisation, its tags, the good made from it. */
export function LinkHistory({ id }: { id: string }) {
  return (
    <History<Then>
      subject={{
        kind: 'link',
        path: `/origin-goods/${id}`,
        noun: '货源',
        key: 'originGood',
        changesLabel: '货源的变化',
        unchanged: '货源的内容没有变化',
        snapshot: (l) => (
          <p>
            名称：<b data-testid="snapshot-name">{l.name}</b> · {showPrice(l.price)} · <span data-testid="snapshot-delisted">{l.delisted ? '已下架' : '在售'}</span> ·{' '}
            {l.parsed ? '名称已识别' : '名称未识别'} · {l.familyId ? '已归入系列' : '未归入系列'} · {l.goodId ? '已建成商品' : '还没有商品'}
          </p>
        ),
      }}
    />
  );
}
