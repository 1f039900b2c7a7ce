import type { Link } from '../../../../src/contract/links';
import { hrefOf } from '../common/route';

/**
 * The links chosen for a batch, each removable, and a warning for those in no family: the good made
 * from one is in no family, so the shop never shows it (docs/domain.md, Public catalog).
 */
export function BatchSelection({ selected, drop }: { selected: ReadonlyMap<string, Link>; drop: (ids: string[]) => void }) {
  const loose = [...selected.values()].filter((l) => !l.family);
  return (
    <section className="card" data-testid="batch-selection" aria-label="已选择的货源">
      <h2 style={{ marginTop: 0 }}>已选择 {selected.size} 个货源</h2>
      {loose.length > 0 && (
        <p className="error" data-testid="batch-loose-warning">
          其中 {loose.length} 个货源还没有归入系列：为它们创建的商品不会在店铺展示。请先 <a href={hrefOf('organise')}>整理货源</a>，或{' '}
          <button type="button" className="link" onClick={() => drop(loose.map((l) => l.id))}>
            取消选择这 {loose.length} 个货源
          </button>
        </p>
      )}
      {[...selected.values()].map((l) => (
        <span key={l.id} className={l.family ? 'badge blue wrap' : 'badge amber wrap'} data-id={l.id}>
          {l.name}
          {l.family ? ` → 系列「${l.family.name}」` : '（未归入系列）'}{' '}
          <button type="button" className="link" aria-label={`取消选择 ${l.name}`} onClick={() => drop([l.id])}>
            ×
          </button>
        </span>
      ))}
    </section>
  );
}
