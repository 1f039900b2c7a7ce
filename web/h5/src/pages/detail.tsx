import { useEffect, useMemo, useState } from 'react';
import type { PublicCell, PublicGoodDetail } from '../../../shared/responses/storefront';
import { Img } from '../common/components';
import { useFetch } from '../common/hooks';

const DIMS: [keyof Omit<PublicCell, 'price'>, keyof PublicGoodDetail['priceMatrix'], string][] = [
  ['size', 'sizes', '尺码'], ['color', 'colors', '颜色'], ['printCount', 'printCounts', '印花'], ['craft', 'crafts', '工艺'], ['logistics', 'logistics', '物流'],
];
type Choice = Omit<PublicCell, 'price'>;

export function DetailPage({ id }: { id: string }) {
  const d = useFetch<PublicGoodDetail>(`/public/goods/${id}`);
  const [choice, setChoice] = useState<Partial<Choice>>({});
  const m = d.data?.priceMatrix;
  // Start on the cell the link names (#/goods/:id?size=…&color=…), else on the cheapest cell.
  useEffect(() => {
    if (!m?.cells.length) return;
    const q = new URLSearchParams(window.location.hash.split('?')[1] ?? '');
    const named = m.cells.find((c) => DIMS.every(([k]) => q.get(k) === c[k]));
    const start = named ?? [...m.cells].sort((a, b) => Number(a.price) - Number(b.price))[0]!;
    const { price: _p, ...k } = start;
    setChoice(k);
  }, [d.data]);
  const cell = useMemo(() => m?.cells.find((c) => DIMS.every(([k]) => c[k] === choice[k])), [m, choice]);
  /** Is value `v` of dimension `k` available together with the other current choices? */
  const available = (k: keyof Choice, v: string) => !!m?.cells.some((c) => c[k] === v && DIMS.every(([k2]) => k2 === k || choice[k2] === undefined || c[k2] === choice[k2]));
  const pick = (k: keyof Choice, v: string) => {
    const next = { ...choice, [k]: v };
    if (!m!.cells.some((c) => DIMS.every(([k2]) => c[k2] === next[k2]))) {
      // Not a cell: keep the new value, take the cheapest cell having it for the rest.
      const fit = m!.cells.filter((c) => c[k] === v).sort((a, b) => Number(a.price) - Number(b.price))[0];
      if (fit) { const { price: _p, ...kk } = fit; setChoice(kk); return; }
    }
    setChoice(next);
  };
  if (d.error) return <div className="page"><a href="#/list">‹ 返回</a><p className="error">{d.error}</p></div>;
  if (!d.data || !m) return <p className="hint">加载中…</p>;
  const g = d.data;
  const media = (choice.color && g.mediaByColor[choice.color]) || [];
  return (
    <div className="detail" data-testid="h5-detail">
      <div className="topbar"><a href="#/list" onClick={(e) => { e.preventDefault(); history.length > 1 ? history.back() : (window.location.hash = '#/list'); }}>‹ 返回</a></div>
      <div className="gallery" data-testid="gallery">
        {media.length ? media.map((x) => <Img key={x.id} className="slide" src={x.url} alt={`${g.name} ${choice.color}`} />) : <Img className="slide" src={g.image} alt={g.name} />}
      </div>
      {media.length > 0 && <div className="hint" data-testid="media-color">{choice.color} · {media.length} 张图</div>}
      <div className="info">
        <div className="bigprice" data-testid="cell-price">{cell ? `¥${cell.price}` : '该组合暂无报价'}</div>
        <h1>{g.name}</h1>
        {g.lowestPrice && <div className="hint">最低 ¥{g.lowestPrice} 起</div>}
      </div>
      <div className="selectors">
        {DIMS.map(([k, list, label]) => (
          <div key={k} className="sel" data-testid={`sel-${k}`}>
            <h4>{label}</h4>
            <div className="opts">
              {(m[list] as string[]).map((v) => (
                <button key={v} className={`${choice[k] === v ? 'on' : ''} ${available(k, v) ? '' : 'off'}`} onClick={() => pick(k, v)}>{v}</button>
              ))}
            </div>
          </div>
        ))}
      </div>
      {g.description && <div className="desc">{g.description}</div>}
      <SpecTable title="尺码表" data={g.sizeChart} />
      <SpecTable title="包装规格" data={g.packagingSpecs} />
    </div>
  );
}

/** Size charts and packaging specs arrive as rows of objects (or nothing); shown as a table. */
function SpecTable({ title, data }: { title: string; data: unknown }) {
  const rows = Array.isArray(data) ? (data as Record<string, unknown>[]).filter((r) => r && typeof r === 'object') : [];
  if (!rows.length) return null;
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const label = (c: string) => SPEC_LABEL[c] ?? c;
  return (
    <div className="spec">
      <h4>{title}</h4>
      <table><thead><tr>{cols.map((c) => <th key={c}>{label(c)}</th>)}</tr></thead>
        <tbody>{rows.map((r, i) => <tr key={i}>{cols.map((c) => <td key={c}>{typeof r[c] === 'object' ? JSON.stringify(r[c]) : String(r[c] ?? '')}</td>)}</tr>)}</tbody></table>
    </div>
  );
}

const SPEC_LABEL: Record<string, string> = {
  size: '尺码', chest: '胸围(cm)', length: '衣长(cm)', sleeve: '袖长(cm)', shoulder: '肩宽(cm)', waist: '腰围(cm)', hip: '臀围(cm)',
  name: '规格', widthCm: '宽(cm)', heightCm: '高(cm)', lengthCm: '长(cm)', weightGrams: '重量(g)', quantity: '数量',
};
