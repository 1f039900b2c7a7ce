/** The words a history says things in: what happened, why, and which part changed (docs/api.md, History). */
import type { HistoryItem } from '../../../../../src/contract/history';

/** What happened, by event type (the subject's own, and the links' and goods' that changed it). */
const EVENT_LABEL: Record<string, string> = {
  FamilyCreated: '创建',
  FamilyRenamed: '重命名',
  FamilyLocked: '锁定',
  FamilyUnlocked: '解锁',
  FamilyShelfSet: '系列上架/下架',
  FamilyMemberAdded: '记录加入的货源',
  FamilyMembersAdded: '记录加入的货源',
  FamilyMemberRemoved: '记录移除的货源',
  FamilyCustomMemberAdded: '加入自定义成员',
  FamilyCustomMemberRemoved: '移除自定义成员',
  FamilyPriceOverrideSet: '设置手动价格',
  FamilyPriceOverrideRemoved: '恢复自动价格',
  FamilyMergedInto: '并入其他系列',
  FamilyDeleted: '删除',
  FamilyRecomputed: '校正系列数据',
  LinkJoinedFamily: '货源加入',
  LinkLeftFamily: '货源离开',
  LinkMirrored: '货源信息更新',
  LinkDetailSynced: '货源详情更新',
  LinkDelisted: '货源下架',
  LinkRelisted: '货源重新上架',
  LinkParsed: '识别货源名称',
  LinkTagsDerived: '生成规格标签',
  LinkTagsTakenOver: '手动设置规格标签',
  LinkTagsRestored: '恢复自动规格标签',
  LinkGoodAssigned: '货源建成商品',
  LinkGoodUnassigned: '货源的商品被删除',
  GoodCreated: '新建商品',
  GoodUpdated: '修改商品',
  GoodOriginsSet: '修改合并货源',
  GoodDeleted: '删除商品',
  GoodShelfSet: '商品上架/下架',
};

/** A family's member events: what they changed shows on the link's own row. */
export const MEMBER_RECORDS = new Set(['FamilyMemberAdded', 'FamilyMembersAdded', 'FamilyMemberRemoved']);

/**
 * An organisation run's one event for a link says, in the words of the three it stands for, the
 * parts it holds: its name parsed, its tags derived, the family it joined.
 */
export function eventLabel(e: HistoryItem): string {
  // 上架 / 下架: the event says which (docs/api.md, History).
  if (e.type === 'FamilyShelfSet' || e.type === 'GoodShelfSet') {
    const off = (e.data as { state?: string } | null)?.state === 'off';
    return `${e.type === 'FamilyShelfSet' ? '系列' : '商品'}${off ? '下架' : '上架'}`;
  }
  if (e.type !== 'LinkOrganised') return EVENT_LABEL[e.type] ?? '其他更改';
  const d = (e.data ?? {}) as { parsed?: unknown; tags?: unknown; familyId?: unknown };
  const parts = [d.parsed && EVENT_LABEL.LinkParsed, d.tags && EVENT_LABEL.LinkTagsDerived, d.familyId && EVENT_LABEL.LinkJoinedFamily].filter(Boolean);
  return parts.length ? parts.join('、') : '整理货源';
}

/** Why: the command or run recorded with the event. */
const WHY_LABEL: Record<string, string> = {
  Organise: '整理货源',
  AutoGroup: '自动分组',
  CreateFamily: '新建系列',
  UpdateFamily: '修改系列',
  SetFamilyShelf: '系列上架/下架',
  SetGoodShelf: '商品上架/下架',
  DeleteFamily: '删除系列',
  AddFamilyMember: '添加货源',
  RemoveFamilyMember: '移除货源',
  AddCustomMember: '添加自定义成员',
  RemoveCustomMember: '移除自定义成员',
  SetPriceOverride: '设置手动价格',
  RemovePriceOverride: '恢复自动价格',
  UpdateLinkTags: '修改规格标签',
  RestoreAutoLinkTags: '恢复自动规格标签',
  CreateGood: '新建商品',
  CreateGoods: '批量创建商品',
  UpdateGood: '修改商品',
  DeleteGood: '删除商品',
  SetGoodOrigins: '修改合并货源',
  SyncCategories: '同步类目',
  SyncOriginGoods: '同步货源',
  SyncDetails: '同步货源详情',
  SyncDetail: '同步货源详情',
  SortCategories: '类目排序',
  SortCountries: '国家排序',
  SortTags: '标签排序',
  RecomputeFamilies: '校正系列数据',
};
export const whyLabel = (why: string) => WHY_LABEL[why] ?? '其他操作';

/** Parts of a family, a link or a good, named as the pages name them. */
const FIELD_LABEL: Record<string, string> = {
  name: '名称',
  locked: '锁定',
  autoManaged: '管理方式',
  gone: '删除或合并',
  customMembers: '自定义成员',
  overrides: '手动价格',
  variants: '规格',
  sizeChart: '尺码表',
  packagingSpecs: '包装规格',
  options: '选项',
  mediaByColor: '各颜色的图片',
  familyNameKey: '系列归类依据',
  price: '价格',
  delisted: '下架',
  parsed: '名称识别结果',
  tags: '规格标签',
  tagsManual: '手动规格标签',
  familyId: '所属系列',
  goodId: '商品',
  detail: '详情',
  media: '图片',
  image: '图片',
  description: '描述',
  goodPriority: '优先级',
  tagIds: '标签',
  tagFontColor: '标签颜色',
  categoryId: '类目',
  countryId: '国家',
  secondaryOriginGoodIds: '合并货源',
  representative: '代表商品',
  public: '店铺展示',
  shelf: '上架状态',
  familyLowestPrice: '系列最低价',
  deleted: '删除',
  originPrice: '货源价格',
  originVariants: '货源规格',
  existed: '存在',
  members: '货源',
  goods: '商品',
  cells: '价格表',
  lowestPrice: '最低价',
};
export const fieldLabel = (k: string) => FIELD_LABEL[k] ?? '其他内容';
