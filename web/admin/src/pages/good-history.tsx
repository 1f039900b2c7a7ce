import { History } from '../common/history/history';
import { showPrice } from '../common/price';

/** A good as it was (docs/api.md, History: `GET /goods/:id/history?at=`). */
interface Then {
  name: string;
  public: boolean;
  representative: boolean;
  familyId: string | null;
  familyLowestPrice: string | null;
  originGood: { name: string; price: string; delisted: boolean } | null;
}

/** A good's history: its own edits, its link's syncs, its family's moves that changed what the shop shows of it. */
export function GoodHistory({ id }: { id: string }) {
  return (
    <History<Then>
      subject={{
        kind: 'good',
        path: `/goods/${id}`,
        noun: '商品',
        key: 'good',
        changesLabel: '店铺看到的变化',
        unchanged: '店铺看到的内容没有变化',
        snapshot: (g) => (
          <p>
            名称：<b data-testid="snapshot-name">{g.name}</b> · <span data-testid="snapshot-public">{g.public ? '店铺中展示' : '店铺中未展示'}</span> ·{' '}
            {g.familyId ? `在系列中${g.representative ? '（代表商品）' : ''}，系列最低价 ${showPrice(g.familyLowestPrice)}` : '不在任何系列'}
            {g.originGood && ` · 货源「${g.originGood.name}」${showPrice(g.originGood.price)}${g.originGood.delisted ? '（已下架）' : ''}`}
          </p>
        ),
      }}
    />
  );
}
