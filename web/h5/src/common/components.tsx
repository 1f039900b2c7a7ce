import { useState } from 'react';
import type { PublicGoodItem } from '../../../shared/responses/storefront';
import { yuan } from './format';

export function Img({ src, alt, className }: { src: string | null | undefined; alt: string; className?: string }) {
  const [bad, setBad] = useState(false);
  if (!src || bad) return <div className={`${className ?? ''} noimg`}>{alt.slice(0, 2)}</div>;
  return <img className={className} src={src} alt={alt} loading="lazy" onError={() => setBad(true)} />;
}

export function GoodCard({ g }: { g: PublicGoodItem }) {
  return (
    <a className="good" href={`#/goods/${g.goodId}`} data-testid="good-card">
      <Img className="cover" src={g.image} alt={g.name} />
      <div className="gname">{g.name}</div>
      {/* The good's tags in its tag colour (the name keeps the page's colour). */}
      {g.tags.length > 0 && (
        <div className="gtags" data-testid="good-tags">
          {g.tags.map((t) => <span key={t.id} className="gtag" style={g.tagFontColor ? { color: g.tagFontColor, borderColor: g.tagFontColor } : undefined}>{t.name}</span>)}
        </div>
      )}
      <div className="price">{yuan(g.price)}<small>起</small></div>
    </a>
  );
}
