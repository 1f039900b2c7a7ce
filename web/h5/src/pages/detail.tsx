import { useState } from 'react';
import type { PublicGoodDetail, PublicGoodItem } from '../../../../src/contract/storefront';
import { EmptyState, GoodCard, GridSkeleton, Img, ResourceError, SkeletonLines } from '../common/components';
import { isPassing } from '../common/failure';
import { priceFrom, yuan } from '../common/format';
import { usePageTitle, useResource } from '../common/hooks';
import { cameFromStorefront, replaceAddress, usePageMemory } from '../common/page-memory';
import { ShareBar } from './detail-share';
import { DIM_LABEL, DIMENSIONS, NO_PRINT, cellOf, changeNotice, isChosen, keepsOthers, pick, printIsPlaceholder, startChoice, valuesOf, type Choice } from './detail-choice';

/** Back where the shopper came from when that was a storefront page; from a shared link, home. */
function back() {
  if (cameFromStorefront()) history.back();
  else window.location.hash = '#/';
}

function TopBar({ title }: { title?: string }) {
  return (
    <div className="topbar">
      <button type="button" className="back" onClick={back} aria-label="返回上一页">
        ‹ 返回
      </button>
      {title && <span className="topbar-title">{title}</span>}
      <a href="#/" className="home-link">
        首页
      </a>
    </div>
  );
}

/** A product page: pictures of the chosen colour, the chosen cell's price, the five selectors, description and tables. */
export function DetailPage({ id, query }: { id: string; query: URLSearchParams }) {
  const d = useResource<PublicGoodDetail>(`/public/goods/${encodeURIComponent(id)}`);
  usePageMemory(d.data !== null);
  const gone = !d.data && d.failure && !isPassing(d.failure) ? (d.failure.kind === 'notFound' ? '商品已下架或不存在' : '链接无效') : null;
  // A product is called by its name; until it has come, what the page is.
  usePageTitle(d.data?.name ?? gone ?? '商品详情');
  const [picked, setPicked] = useState<Choice | null>(null);
  /** what a tap changed besides itself, said under the group tapped (and to screen readers) */
  const [notice, setNotice] = useState<{ dim: (typeof DIMENSIONS)[number]; text: string } | null>(null);

  if (!d.data && d.failure && !isPassing(d.failure)) return <GonePage notFound={d.failure.kind === 'notFound'} />;
  if (!d.data && d.failure)
    return (
      <div className="detail" data-testid="h5-detail-error">
        <TopBar />
        <h1 className="sr-only">商品详情</h1>
        <ResourceError of={d} subject="商品详情" more={[{ label: '返回首页', href: '#/' }]} />
      </div>
    );
  if (!d.data)
    return (
      <div className="detail" data-testid="h5-detail-loading">
        <TopBar />
        <h1 className="sr-only">商品详情</h1>
        <p className="sr-only" role="status">
          正在加载商品
        </p>
        <div data-testid="skeleton" aria-hidden="true">
          <div className="sk slide" />
          <div className="info">
            <SkeletonLines lines={['price', '', 'short']} />
          </div>
          <div className="selectors">
            <SkeletonLines lines={['short', 'opts', 'short', 'opts']} />
          </div>
        </div>
      </div>
    );

  const g = d.data;
  const m = g.priceMatrix;
  const named = Object.fromEntries(DIMENSIONS.flatMap((k) => (query.get(k) ? [[k, query.get(k)!]] : []))) as Partial<Choice>;
  const choice = picked ?? startChoice(m.cells, named);
  const cell = choice ? cellOf(m.cells, choice) : undefined;
  const media = (choice && g.mediaByColor[choice.color]) || [];
  const choose = (k: (typeof DIMENSIONS)[number], v: string) => {
    if (!choice) return;
    const r = pick(m.cells, choice, k, v);
    setPicked(r.choice);
    setNotice(r.changed.length ? { dim: k, text: changeNotice(r.changed) } : null);
    // The address names the chosen cell, so a shared or reopened link shows it again.
    replaceAddress(`#/goods/${encodeURIComponent(id)}?${new URLSearchParams(r.choice)}`);
  };

  return (
    <div className="detail" data-testid="h5-detail">
      <TopBar />
      <div className="gallery" data-testid="gallery" tabIndex={0} role="region" aria-label="商品图片">
        {media.length ? (
          media.map((x) => <Img key={x.id} className="slide" src={x.url} alt={`${g.name} ${choice?.color}`} />)
        ) : (
          <Img className="slide" src={g.image} alt={g.name} />
        )}
      </div>
      {media.length > 0 && (
        <div className="hint" data-testid="media-color">
          {choice?.color} · {media.length} 张图
        </div>
      )}
      <div className="info">
        <div className={cell ? 'bigprice' : 'bigprice none'} data-testid="cell-price" aria-live="polite">
          {cell ? yuan(cell.price) : '暂无报价'}
        </div>
        <h1>{g.name}</h1>
        {cell && g.lowestPrice && g.lowestPrice !== cell.price && <div className="hint left">全部规格 {priceFrom(g.lowestPrice)}</div>}
      </div>
      {choice ? (
        <div className="selectors">
          {DIMENSIONS.map((k) => {
            const values = valuesOf(m, k);
            const placeholder = k === 'printCount' && printIsPlaceholder(choice);
            // A matrix with 不打印 only has no printing side to choose at all.
            if (k === 'printCount' && values.length === 0)
              return (
                <div key={k} className="sel" data-testid={`sel-${k}`}>
                  <h2 className="sel-title">
                    {DIM_LABEL[k]}
                    <span className="sel-value">：无需选择（{NO_PRINT}）</span>
                  </h2>
                </div>
              );
            return (
              <div key={k} className="sel" role="group" aria-labelledby={`sel-title-${k}`} data-testid={`sel-${k}`}>
                <h2 className="sel-title" id={`sel-title-${k}`}>
                  {DIM_LABEL[k]}
                  <span className="sel-value">：{placeholder ? `无需选择（${NO_PRINT}）` : choice[k]}</span>
                </h2>
                {placeholder && (
                  <p className="sel-note" data-testid="no-print-note">
                    {NO_PRINT}的款式不分印花面数；如需印花，选择印花面数后工艺会随之调整
                  </p>
                )}
                <div className="opts">
                  {values.map((v) => {
                    const on = isChosen(choice, k, v);
                    const keeps = on || keepsOthers(m.cells, choice, k, v);
                    return (
                      <button
                        key={v}
                        type="button"
                        aria-pressed={on}
                        aria-label={keeps ? undefined : `${v}（需调整其他选项）`}
                        className={`${on ? 'on' : ''} ${keeps ? '' : 'off'}`}
                        onClick={() => choose(k, v)}
                      >
                        {v}
                      </button>
                    );
                  })}
                </div>
                {notice?.dim === k && (
                  <p className="notice" aria-hidden="true" data-testid="choice-notice">
                    {notice.text}
                  </p>
                )}
              </div>
            );
          })}
          <p className="sr-only" role="status">
            {notice?.text}
          </p>
        </div>
      ) : (
        <Unpriced g={g} />
      )}
      {g.description && <div className="desc">{g.description}</div>}
      <SpecTable title="尺码表" data={g.sizeChart} />
      <SpecTable title="包装规格" data={g.packagingSpecs} />
      <ShareBar id={id} name={g.name} lowestPrice={g.lowestPrice} />
    </div>
  );
}

/** A product listed before it has a price: what it comes in, and that it cannot be chosen yet. */
function Unpriced({ g }: { g: PublicGoodDetail }) {
  const sizes = [...new Set(g.variants.map((v) => v.size))];
  const colors = [...new Set(g.variants.map((v) => v.color))];
  return (
    <div className="selectors" data-testid="unpriced-detail">
      <p className="state-hint left">这件商品还没有定价，暂时不能选择规格。定价后即可查看各规格价格。</p>
      {colors.length > 0 && (
        <p className="facts">
          <span className="fact-label">颜色</span>
          {colors.join('、')}
        </p>
      )}
      {sizes.length > 0 && (
        <p className="facts">
          <span className="fact-label">尺码</span>
          {sizes.join('、')}
        </p>
      )}
      <p>
        <a className="btn" href="#/list">
          看看其他商品
        </a>
      </p>
    </div>
  );
}

/** An old or broken link: the product is gone (404) or the link is malformed (another 4xx); other goods to go on with. */
function GonePage({ notFound }: { notFound: boolean }) {
  const newest = useResource<{ items: PublicGoodItem[] }>('/public/goods?sort=NEWEST&pageSize=6');
  return (
    <div className="detail gone" data-testid="h5-gone">
      <TopBar />
      <h1 className="sr-only">{notFound ? '商品已下架或不存在' : '链接无效'}</h1>
      <EmptyState
        title={notFound ? '商品已下架或不存在' : '链接无效'}
        hint={notFound ? '这件商品可能已经下架，去看看其他商品吧' : '这个商品链接不完整或已失效，去看看其他商品吧'}
        actions={[
          { label: '返回首页', href: '#/', primary: true },
          { label: '逛逛全部商品', href: '#/list' },
        ]}
        testId="gone-state"
      />
      {newest.data && newest.data.items.length > 0 && (
        <section aria-labelledby="gone-more">
          <h2 id="gone-more">看看这些商品</h2>
          <div className="grid">
            {newest.data.items.map((x) => (
              <GoodCard key={x.goodId} g={x} />
            ))}
          </div>
        </section>
      )}
      {!newest.data && !newest.failure && <GridSkeleton count={2} label="正在加载推荐商品" />}
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
      <h2>{title}</h2>
      <div className="table-scroll" tabIndex={0} role="region" aria-label={title}>
        <table>
          <thead>
            <tr>
              {cols.map((c) => (
                <th key={c} scope="col">
                  {label(c)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i}>
                {cols.map((c) => (
                  <td key={c}>{typeof r[c] === 'object' ? JSON.stringify(r[c]) : String(r[c] ?? '')}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

const SPEC_LABEL: Record<string, string> = {
  size: '尺码',
  chest: '胸围(cm)',
  length: '衣长(cm)',
  sleeve: '袖长(cm)',
  shoulder: '肩宽(cm)',
  waist: '腰围(cm)',
  hip: '臀围(cm)',
  name: '规格',
  widthCm: '宽(cm)',
  heightCm: '高(cm)',
  lengthCm: '长(cm)',
  weightGrams: '重量(g)',
  quantity: '数量',
  depth: '厚(cm)',
  width: '宽(cm)',
  height: '高(cm)',
};
