import type React from 'react';
import { useEffect, useState } from 'react';
import { api } from '../api';
import type { Usage } from '../../../../src/contract/usage';
import { ErrorLine, Loading } from './components';
import { openDialog } from './dialog';
import { errorText } from './error-text';
import { hrefOf, navigate } from './route';
import { REPLACEABLE, ReplaceAndDelete, type ReplaceKind } from './replace';

/**
 * Deletes that say what they will do (docs/api.md, Usage): the confirmation reads the thing's usage
 * from the server first and states it in counts; where the server would refuse the delete (still in
 * use), it shows the counts and where the thing is used, with a way there, and offers no delete.
 */
export type UsageKind = 'categories' | 'countries' | 'tags' | 'tag-groups' | 'goods' | 'product-families';

const WHAT: Record<UsageKind, string> = { categories: '类目', countries: '国家', tags: '标签', 'tag-groups': '标签组', goods: '商品', 'product-families': '商品系列' };

/** One line of the impact: a count, what it counts, and where to see them. */
interface Line {
  key: string;
  text: string;
  href?: string;
  blocking: boolean;
}

function lines(kind: UsageKind, id: string, u: Usage): Line[] {
  const c = u.counts;
  const n = (k: string) => c[k] ?? 0;
  const blocks = (k: string) => u.blockedBy.includes(k);
  const out: Line[] = [];
  const add = (k: string, text: string, href?: string) => {
    if (n(k) > 0) out.push({ key: k, text, ...(href ? { href } : {}), blocking: blocks(k) });
  };
  switch (kind) {
    case 'categories':
      add('children', `${n('children')} 个下级类目（列在它下面）`);
      add('goods', `${n('goods')} 个商品`, hrefOf('goods', { categoryId: id }));
      add('links', `${n('links')} 个货源`, hrefOf('links', { categoryId: id }));
      add('families', `店铺中 ${n('families')} 个商品系列属于它`);
      break;
    case 'countries':
      add('goods', `${n('goods')} 个商品`, hrefOf('goods', { countryId: id }));
      add('links', `${n('links')} 个货源（名称中的国家）`, hrefOf('links', { countryId: id }));
      add('families', `店铺中 ${n('families')} 个商品系列属于它`);
      break;
    case 'tags':
      add('goods', `${n('goods')} 个商品带有它`, hrefOf('goods', { tagIds: id }));
      add('links', `${n('links')} 个货源的规格用到它`, hrefOf('links', { tagId: id }));
      add('families', `店铺筛选中 ${n('families')} 个商品系列带有它`);
      break;
    case 'tag-groups':
      add('tags', `${n('tags')} 个标签`);
      add('goods', `这些标签在 ${n('goods')} 个商品上`);
      add('links', `${n('links')} 个货源的规格用到这些标签`);
      add('families', `店铺筛选中 ${n('families')} 个商品系列带有这些标签`);
      break;
    case 'goods':
      add('positions', `将从 ${n('positions')} 个首页展示位中移除`, hrefOf('positions'));
      add('customMemberOf', `将不再是 ${n('customMemberOf')} 个系列的自定义成员`);
      if (n('familyGoods') === 1) out.push({ key: 'familyGoods', text: '它是所在系列唯一的商品：删除后该系列将从店铺下架', blocking: false });
      else if (n('familyGoods') > 1) out.push({ key: 'familyGoods', text: `所在系列还有 ${n('familyGoods') - 1} 个其他商品，店铺中仍会显示该系列`, blocking: false });
      break;
    case 'product-families':
      add('members', `${n('members')} 个货源`, hrefOf('families', { id, tab: 'members' }));
      add('customMembers', `${n('customMembers')} 个自定义成员`, hrefOf('families', { id, tab: 'members' }));
      add('goods', `${n('goods')} 个商品`, hrefOf('goods', { familyId: id }));
      add('overrides', `${n('overrides')} 个手动价格将一并删除`);
      break;
  }
  return out;
}

/** Where a refused delete leads: what to do first. */
const REFUSED_HINT: Record<UsageKind, string> = {
  categories: '请先删除或移走下级类目，并把商品和货源改到其他类目。',
  countries: '请先把这些商品改到其他国家；货源的国家来自它们的名称。',
  tags: '请先从这些商品上去掉它；货源的规格标签由名称和规格生成。',
  'tag-groups': '请先删除或移走组里的标签。',
  goods: '',
  'product-families': '请先移除系列中的货源、自定义成员和商品。',
};

function ImpactBody({ kind, id, name, close, onReplaced }: { kind: UsageKind; id: string; name: string; close: (yes: boolean) => void; onReplaced?: () => void }) {
  const [usage, setUsage] = useState<Usage | null>(null);
  const [error, setError] = useState('');
  const [replaced, setReplaced] = useState(false);
  useEffect(() => {
    let live = true;
    api.get<Usage>(`/${kind}/${id}/usage`).then(
      (u) => live && setUsage(u),
      (e) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [kind, id]);
  const what = WHAT[kind];
  const refused = usage !== null && usage.blockedBy.length > 0;
  const ls = usage ? lines(kind, id, usage) : [];
  const go = (e: React.MouseEvent) => {
    // Following a link closes the dialog and goes there (the link is gone once the dialog is).
    const href = (e.target as HTMLElement).closest('a')?.getAttribute('href');
    if (!href) return;
    e.preventDefault();
    close(false);
    void navigate(href);
  };
  return (
    <div data-testid="impact" data-refused={refused ? 'true' : 'false'}>
      <h2 id="dialog-title">{replaced ? `已替换并删除「${name}」` : refused ? `「${name}」仍在使用中，不能删除` : `删除${what}「${name}」？`}</h2>
      {!usage && !error && <Loading text="正在查看它在哪里被使用…" />}
      <ErrorLine error={error} />
      {usage && (
        <div className="dialog-body" onClick={go}>
          {ls.length === 0 ? (
            <p data-testid="impact-none">没有任何商品、货源或系列用到它。删除后不可恢复。</p>
          ) : (
            <>
              <p>{refused ? '它现在被这些地方使用：' : '删除后：'}</p>
              <ul className="impact" data-testid="impact-lines">
                {ls.map((l) => (
                  <li key={l.key} data-testid={`impact-${l.key}`} className={l.blocking ? 'blocking' : undefined}>
                    {l.href ? <a href={l.href}>{l.text}</a> : l.text}
                  </li>
                ))}
              </ul>
              {replaced ? null : refused ? <p>{REFUSED_HINT[kind]}</p> : <p>删除后不可恢复。</p>}
              {refused && onReplaced && usage.blockedBy.every((k) => REPLACEABLE.includes(k)) && (
                <ReplaceAndDelete
                  kind={kind as ReplaceKind}
                  id={id}
                  name={name}
                  onReplaced={() => {
                    setReplaced(true);
                    onReplaced();
                  }}
                />
              )}
            </>
          )}
        </div>
      )}
      <div className="row dialog-actions">
        <button type="button" className="secondary" data-autofocus onClick={() => close(false)}>
          {refused ? '知道了' : '取消'}
        </button>
        {!refused && (
          <button type="button" className="danger-solid" disabled={!usage} onClick={() => close(true)} data-testid="impact-confirm">
            确认删除
          </button>
        )}
      </div>
    </div>
  );
}

/**
 * Asks with the thing's usage; true only when the administrator confirmed a delete the server allows.
 * `onReplaced` (countries, categories, tags): a refused delete offers to replace it and delete, and
 * this is called once that is done (the answer is then false: nothing is left to delete).
 */
export function confirmDelete(kind: UsageKind, id: string, name: string, onReplaced?: () => void): Promise<boolean> {
  return openDialog(`删除${WHAT[kind]}`, (close) => <ImpactBody kind={kind} id={id} name={name} close={close} {...(onReplaced ? { onReplaced } : {})} />);
}
