import type { BatchAnswer } from '../../../../src/contract/goods';
import type { Link } from '../../../../src/contract/links';
import { CODE_TEXT } from '../common/error-text';
import { useNames } from '../common/names';
import { hrefOf } from '../common/route';

/** Why an item was skipped, in words. */
const skippedText = (code: string) => (code === 'GOOD.EXISTS_FOR_LINK' ? '这个货源已有商品' : (CODE_TEXT[code] ?? '无法创建'));

/**
 * A batch's outcome item by item, in the order sent (POST /goods/batch, docs/api.md): each link
 * either got a good, in a family (the shop shows it) or in none (the shop does not), or was skipped and why.
 */
export function BatchResult({ result, sent }: { result: BatchAnswer; sent: ReadonlyMap<string, Link> }) {
  const goodNames = useNames('goods', result.created);
  const linkName = (id: string | null) => (id && sent.get(id)?.name) ?? '…';
  const loose = result.goods.filter((g) => !g.family).length;
  const rows = [...result.goods.map((g) => ({ at: g.index, good: g, skip: null })), ...result.skipped.map((s) => ({ at: s.index, good: null, skip: s }))].sort(
    (x, y) => x.at - y.at,
  );
  return (
    <section data-testid="batch-result" className="card" role="status" aria-label="批量创建的结果">
      <h2 style={{ marginTop: 0 }}>
        已创建 <b data-testid="batch-created-count">{result.created.length}</b> 个商品
        {result.skipped.length > 0 && <>，跳过 {result.skipped.length} 个货源</>}
      </h2>
      {loose > 0 && (
        <p className="error" data-testid="batch-loose">
          其中 {loose} 个商品没有加入系列，店铺中不会展示。<a href={hrefOf('organise')}>去整理货源</a>，货源归入系列后商品会随之加入。
        </p>
      )}
      <ul data-testid="batch-items">
        {rows.map(({ at, good, skip }) =>
          good ? (
            <li key={at} data-testid="batch-item" data-id={good.originGoodId ?? undefined} data-outcome={good.family ? 'in-family' : 'no-family'}>
              货源「{linkName(good.originGoodId)}」：已创建商品 <a href={hrefOf('goods', { id: good.id })}>「{goodNames[good.id] ?? '…'}」</a>
              {good.family ? (
                <>
                  ，加入系列 <a href={hrefOf('families', { id: good.family.id })}>「{good.family.name}」</a>
                </>
              ) : (
                <span className="error">，没有加入系列（店铺中不展示）</span>
              )}
            </li>
          ) : (
            <li key={at} data-testid="batch-item" className="error" data-id={skip!.originGoodId ?? undefined} data-outcome="skipped">
              货源「{linkName(skip!.originGoodId)}」：跳过，{skippedText(skip!.code)}
            </li>
          ),
        )}
      </ul>
    </section>
  );
}
