import type { ApiError } from '../../../shared/http';

/** What the administrator is told for the API's error codes; the API's own message follows in brackets. */
const CODE_TEXT: Record<string, string> = {
  'GOOD.EXISTS_FOR_LINK': '该链接已有商品',
  'GOOD.UNKNOWN_ORIGIN': '链接不存在',
  'GOOD.PRIMARY_AS_SECONDARY': '主链接不能同时作为次要链接',
  'GOOD.NAME_REQUIRED': '自定义商品需要名称',
  'UPLOAD.UNSUPPORTED_TYPE': '不支持的文件类型，只接受 png、jpg、webp、gif 图片',
  'UPLOAD.TOO_LARGE': '文件太大',
  'FAMILY.NOT_EMPTY': '系列仍有成员或商品，不能删除',
  'FAMILY.NOT_A_CUSTOM_GOOD': '只有自定义商品（没有来源链接）才能作为自定义成员',
  'FAMILY.OVERRIDE_KEY_INVALID': '覆盖价的格子不存在',
  'CATEGORY.HAS_CHILDREN': '类目仍有下级类目，请先删除或移走它们',
  'CATEGORY.UNKNOWN_PARENT': '上级类目不存在',
  'COUNTRY.CODE_TAKEN': '已有国家使用这个代码',
  'UNKNOWN_REFERENCE': '引用的类目、国家或标签不存在',
  'CATEGORIES.NOT_A_PERMUTATION': '类目已变化，请刷新后再排序',
  'COUNTRIES.NOT_A_PERMUTATION': '国家已变化，请刷新后再排序',
  'TAGS.NOT_A_PERMUTATION': '标签已变化，请刷新后再排序',
  'TAG.NAME_TAKEN': '同组已有同名标签',
  'TAG.ALREADY_EXISTS': '同组已有同名标签',
  'TAG_GROUP.ALREADY_EXISTS': '已有同名标签组',
  'TAG_GROUP.DIMENSION_TAKEN': '该维度已有标签组',
  'TAG_GROUP.HAS_TAGS': '标签组仍有标签，不能删除',
  'POSITION.DUPLICATE_GOODS': '同一商品在展示位中只能出现一次',
  'ORIGIN_GOOD.UNPARSEABLE': '链接名称无法解析，不能自动派生标签',
  'ORGANISE.ALREADY_RUNNING': '整理正在进行',
  'SYNC.ALREADY_RUNNING': '同步正在进行',
  'EVENT_STORE.WRONG_REVISION': '数据已被他人修改，请刷新后重试',
};

/** An error as the page shows it: the API's message, after a Chinese summary when the code is known. */
export function errorText(e: unknown): string {
  const err = e as Partial<ApiError> & Error;
  const known = err.code ? CODE_TEXT[err.code] : undefined;
  return known ? `${known}（${err.message}）` : err.message;
}
