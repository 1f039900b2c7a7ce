import { useEffect, useId, useState } from 'react';
import { api } from '../api';
import type { BulkRun } from '../../../../src/contract/bulk';
import type { Usage } from '../../../../src/contract/usage';
import { ErrorLine, Loading, Status } from './components';
import { openDialog } from './dialog';
import { errorText } from './error-text';
import { useAction } from './hooks';
import { BulkRunStatus, useBulkRun } from './bulk-run';
import { TagPicker } from './tags';
import { usePlaces } from './vocab';

export type BulkTarget = 'goods' | 'families';
export type BulkKind = 'setCountry' | 'setCategory' | 'setTags' | 'shelfOn' | 'shelfOff' | 'delete';
export type Selection = { ids: string[] } | { filter: Record<string, string> };

export const UNIT: Record<BulkTarget, string> = { goods: '商品', families: '商品系列' };
const BASE: Record<BulkTarget, string> = { goods: '/goods', families: '/product-families' };
const TITLE: Record<BulkKind, string> = {
  setCountry: '批量设置国家',
  setCategory: '批量设置类目',
  setTags: '批量增删标签',
  shelfOn: '批量上架',
  shelfOff: '批量下架',
  delete: '批量删除',
};
/** What putting on or off the shelf does, said before it is confirmed (docs/domain.md, Public catalog). */
const SHELF_NOTE: Record<BulkTarget, Record<'shelfOn' | 'shelfOff', string>> = {
  goods: { shelfOn: '上架后，这些商品所在的在售系列会在店铺中展示它们。', shelfOff: '下架后，这些商品不再在店铺展示；系列的商品都下架时，系列也不再展示。' },
  families: { shelfOn: '上架后，有在售商品的系列会在店铺中展示。', shelfOff: '下架后，这些系列不再在店铺展示（系列中的商品保持各自的上架状态）。' },
};
const isShelf = (k: BulkKind): k is 'shelfOn' | 'shelfOff' => k === 'shelfOn' || k === 'shelfOff';

/** What a bulk delete will do, read from the server before it is confirmed (as one delete's impact is). */
function impactLines(target: BulkTarget, c: Record<string, number>): string[] {
  const n = (k: string) => c[k] ?? 0;
  if (target === 'families')
    return [
      `将删除 ${n('families') - n('notEmpty')} 个空的商品系列`,
      ...(n('notEmpty') ? [`${n('notEmpty')} 个系列还有货源、成员或商品，会被跳过`] : []),
      ...(n('overrides') ? [`${n('overrides')} 个手动价格将一并删除`] : []),
    ];
  return [
    `将删除 ${n('goods')} 个商品`,
    ...(n('positions') ? [`它们将从 ${n('positions')} 个首页展示位中移除`] : []),
    ...(n('customMemberOf') ? [`${n('customMemberOf')} 个自定义成员关系将解除`] : []),
    ...(n('familiesLeaving') ? [`${n('familiesLeaving')} 个商品系列将没有商品，从店铺下架`] : []),
  ];
}

function DeleteImpact({ target, selection }: { target: BulkTarget; selection: Selection }) {
  const [u, setU] = useState<Usage | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    api.request<Usage>('POST', `${BASE[target]}/bulk/impact`, selection).then(setU, (e) => setError(errorText(e)));
  }, []);
  if (error) return <ErrorLine error={error} />;
  if (!u) return <Loading text="正在查看删除会影响什么…" />;
  return (
    <ul className="impact" data-testid="impact-lines">
      {impactLines(target, u.counts).map((l) => (
        <li key={l}>{l}</li>
      ))}
      <li>删除后不可恢复。</li>
    </ul>
  );
}

type Choice = { countryId: string; categoryId: string; add: string[]; remove: string[] };

/** The value to set: a country, a category, or tags to add and to remove. */
function ChoiceFields({ kind, value, onChange }: { kind: BulkKind; value: Choice; onChange: (c: Choice) => void }) {
  const { places } = usePlaces();
  const id = useId();
  if (kind === 'setTags')
    return (
      <>
        <h3>加上这些标签</h3>
        <TagPicker value={value.add} onChange={(add) => onChange({ ...value, add })} />
        <h3>去掉这些标签</h3>
        <TagPicker value={value.remove} onChange={(remove) => onChange({ ...value, remove })} />
      </>
    );
  const key = kind === 'setCountry' ? 'countryId' : 'categoryId';
  const options = kind === 'setCountry' ? places?.countries : places?.categories;
  return (
    <label htmlFor={id}>
      {kind === 'setCountry' ? '改为国家' : '改为类目'}
      <select id={id} data-testid="bulk-value" value={value[key]} onChange={(e) => onChange({ ...value, [key]: e.target.value })}>
        <option value="">（不设置）</option>
        {options?.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </label>
  );
}

const actionOf = (kind: BulkKind, c: Choice) =>
  kind === 'setCountry'
    ? { kind, countryId: c.countryId || null }
    : kind === 'setCategory'
      ? { kind, categoryId: c.categoryId || null }
      : kind === 'setTags'
        ? { kind, add: c.add, remove: c.remove }
        : isShelf(kind)
          ? { kind: 'setShelf', state: kind === 'shelfOn' ? 'on' : 'off' }
          : { kind };

function BulkDialog(props: { target: BulkTarget; kind: BulkKind; selection: Selection; count: number; close: (ran: boolean) => void }) {
  const { target, kind, selection, count } = props;
  const [choice, setChoice] = useState<Choice>({ countryId: '', categoryId: '', add: [], remove: [] });
  const [started, setStarted] = useState<BulkRun | null>(null);
  const run = useBulkRun(started);
  const a = useAction();
  const unit = UNIT[target];
  const start = () => a.run(async () => setStarted(await api.request<BulkRun>('POST', `${BASE[target]}/bulk`, { ...selection, action: actionOf(kind, choice) })));
  const empty = kind === 'setTags' && choice.add.length + choice.remove.length === 0;
  return (
    <div data-testid="bulk-dialog">
      <h2 id="dialog-title">
        {TITLE[kind]}：{count} 个{unit}
      </h2>
      {run ? (
        <BulkRunStatus run={run} unit={unit} />
      ) : (
        <div className="dialog-body">
          {target === 'families' && kind !== 'delete' && !isShelf(kind) && <p className="muted">将修改每个系列中的所有商品。</p>}
          {kind === 'delete' ? (
            <DeleteImpact target={target} selection={selection} />
          ) : isShelf(kind) ? (
            <p>{SHELF_NOTE[target][kind]}</p>
          ) : (
            <ChoiceFields kind={kind} value={choice} onChange={setChoice} />
          )}
          <Status a={a} />
        </div>
      )}
      <div className="row dialog-actions">
        <button type="button" className="secondary" data-autofocus onClick={() => props.close(!!run)}>
          {run ? (run.state === 'running' ? '关闭（继续在后台进行）' : '完成') : '取消'}
        </button>
        {!run && (
          <button type="button" className={kind === 'delete' ? 'danger-solid' : ''} disabled={a.busy || empty} onClick={() => void start()} data-testid="bulk-confirm">
            {kind === 'delete' ? `确认删除 ${count} 个${unit}` : `应用到 ${count} 个${unit}`}
          </button>
        )}
      </div>
    </div>
  );
}

/** Opens the dialog of one bulk change; answers whether a run was started (the list then reloads). */
export function openBulkDialog(target: BulkTarget, kind: BulkKind, selection: Selection, count: number): Promise<boolean> {
  return openDialog(TITLE[kind], (close) => <BulkDialog target={target} kind={kind} selection={selection} count={count} close={close} />);
}
