import type { ApiError } from '../../../shared/http';

/**
 * What the administrator is told for each error code the server can answer (its registry:
 * src/platform/error-codes.ts; test/unit/web/error-text.test.ts fails when a code has no text here).
 * The server's own message is English for developers and never shown; neither are ids.
 */
export const CODE_TEXT: Record<string, string> = {
  // The request itself
  VALIDATION_FAILED: '填写的内容有误，请按提示修改',
  INVALID_ID: '地址中的编号无效，请从列表重新打开',
  INVALID_IF_MATCH: '页面版本信息有误，请刷新后重试',
  MALFORMED_JSON: '提交的内容格式有误，请刷新页面后重试',
  BAD_REQUEST: '请求未被接受，请刷新页面后重试',
  PAYLOAD_TOO_LARGE: '提交的内容太大，请减少后重试',
  UNSUPPORTED_ENCODING: '提交的内容编码不受支持，请刷新页面后重试',
  'REQUEST.INVALID_TEXT': '内容中含有无法保存的特殊字符，请删除后重试',
  'REQUEST.CROSS_ORIGIN': '请从本后台的地址打开页面后再操作',
  'REQUEST.UNSUPPORTED_MEDIA_TYPE': '提交的内容格式有误，请刷新页面后重试',
  'REQUEST.METHOD_NOT_ALLOWED': '这个地址不支持这种操作，请刷新页面后重试',
  'IDEMPOTENCY.BAD_KEY': '重复提交保护出错，请刷新页面后重试',
  'IDEMPOTENCY.KEY_REUSED': '这次提交与之前的一次冲突，请刷新页面后重试',
  'IDEMPOTENCY.IN_PROGRESS': '上一次提交还在处理中，请稍候',
  RATE_LIMITED: '操作太频繁，请稍等一分钟再试',
  NOT_FOUND: '要找的内容不存在',
  INTERNAL: '服务器出错了，请稍后重试；若一直出现，请联系技术人员',
  DEPENDENCY_UNAVAILABLE: '数据库暂时不可用，请稍后重试',

  // Sign-in
  'AUTH.UNAUTHENTICATED': '登录已过期，请重新登录',
  'AUTH.INVALID_CREDENTIALS': '用户名或密码错误',
  'AUTH.FORBIDDEN': '当前账号没有权限进行此操作',
  'AUTH.REGISTRATION_CLOSED': '已经有管理员了，注册已关闭，请直接登录',
  'METRICS.UNAUTHORIZED': '没有查看监控数据的权限',
  'USER.NOT_FOUND': '没有这个用户',
  'USER.PASSWORD_REFUSED': '新密码不符合要求（至少 12 个字符）',
  'USER.CANCELLED': '已取消，未做任何修改',
  'USER.LAST_USER': '这是最后一个用户，不能删除',

  // Money and references
  'MONEY.INVALID': '价格须为数字金额，如 59.90',
  'MONEY.TOO_PRECISE': '价格最多保留两位小数',
  UNKNOWN_REFERENCE: '选择的类目、国家、标签、标签组、商品或货源已不存在，请刷新后重新选择',

  // History
  'HISTORY.QUERY_INVALID': '历史记录的查询条件有误',
  'HISTORY.RANGE_INVALID': '开始时间不能晚于结束时间',

  // Links and their tags
  'ORIGIN_GOOD.NOT_FOUND': '货源不存在，可能已被删除',
  'ORIGIN_GOOD.UNPARSEABLE': '货源名称不符合命名规则，无法自动生成标签',
  'TAGS.NOT_A_DIMENSION': '货源只能使用尺码、颜色、印花面数、工艺、物流这几类标签',
  'TAGS.NOT_A_PERMUTATION': '标签已有变化，请刷新后再排序',

  // Goods
  'GOOD.NOT_FOUND': '商品不存在，可能已被删除',
  'GOOD.EXISTS': '商品已存在',
  'GOOD.EXISTS_FOR_LINK': '该货源已有商品，不能再创建',
  'GOOD.NAME_REQUIRED': '自定义商品需要填写名称',
  'GOOD.PRIMARY_AS_SECONDARY': '商品的主货源不能同时作为合并货源',
  'PUBLIC_GOOD.NOT_FOUND': '店铺中没有这个商品',

  // Families
  'FAMILY.NOT_FOUND': '商品系列不存在，可能已被删除或合并',
  'FAMILY.EXISTS': '商品系列已存在',
  'FAMILY.GONE': '这个系列已被删除或并入其他系列，不能再加入货源',
  'FAMILY.NO_GOODS': '系列中没有商品，没有可修改的内容',
  'FAMILY.NOT_EMPTY': '系列中还有货源或商品，不能删除',
  'FAMILY.MEMBER_NOT_FOUND': '这个货源已不在该系列中',
  'FAMILY.CUSTOM_MEMBER_NOT_FOUND': '这个商品已不是该系列的自定义成员',
  'FAMILY.NOT_A_CUSTOM_GOOD': '只有自定义商品（没有货源的商品）才能作为自定义成员',
  'FAMILY.OVERRIDE_KEY_INVALID': '价格表中没有这个规格，请刷新后重试',
  'FAMILY.OVERRIDE_NOT_FOUND': '这个规格没有手动价格',

  // Vocabulary
  'CATEGORY.NOT_FOUND': '类目不存在，可能已被删除',
  'CATEGORY.ALREADY_EXISTS': '类目已存在',
  'CATEGORY.PARENT_CYCLE': '不能把类目放到它自己或它的下级类目下面',
  'CATEGORY.HAS_CHILDREN': '类目下还有子类目，请先删除或移走它们',
  'CATEGORY.IN_USE': '类目仍在使用中，不能删除',
  'CATEGORIES.NOT_A_PERMUTATION': '类目已有变化，请刷新后再排序',
  'COUNTRY.NOT_FOUND': '国家不存在，可能已被删除',
  'COUNTRY.ALREADY_EXISTS': '国家已存在',
  'COUNTRY.CODE_TAKEN': '已有其他国家使用这个代码',
  'COUNTRY.IN_USE': '国家仍在使用中，不能删除',
  'COUNTRIES.NOT_A_PERMUTATION': '国家已有变化，请刷新后再排序',
  'TAG.NOT_FOUND': '标签不存在，可能已被删除',
  'TAG.ALREADY_EXISTS': '标签已存在',
  'TAG.NAME_TAKEN': '这个标签组里已有同名标签',
  'TAG.IN_USE': '标签仍在使用中，不能删除',
  'TAG_GROUP.NOT_FOUND': '标签组不存在，可能已被删除',
  'TAG_GROUP.ALREADY_EXISTS': '已有同名标签组',
  'TAG_GROUP.DIMENSION_TAKEN': '已有其他标签组用于这个规格维度',
  'TAG_GROUP.HAS_TAGS': '标签组里还有标签，请先删除或移走它们',
  'POSITION.NOT_FOUND': '展示位不存在，可能已被删除',
  'POSITION.ALREADY_EXISTS': '展示位已存在',
  'POSITION.DUPLICATE_GOODS': '同一个商品在展示位中只能出现一次',

  // Writes and the system's data
  'EVENT_STORE.WRONG_REVISION': '内容已被其他人修改，请刷新后重试',
  'EVENT_STORE.BUSY': '内容正在被频繁修改，请稍后重试',
  'EVENT_STORE.DUPLICATE_EVENT_ID': '这次修改与另一次重复，请刷新后查看结果',
  'EVENT_STORE.UNAVAILABLE': '数据存储暂时不可用，请稍后重试',
  'EVENT.INVALID': '数据有误，无法保存；请联系技术人员',
  'EVENT.UNKNOWN_TYPE': '数据有误，无法读取；请联系技术人员',
  'EVENT.UNKNOWN_VERSION': '数据来自更新的版本，请联系技术人员升级',
  'LOCK.BUSY': '其他管理员正在修改同一内容，请稍后重试',
  'LOCK.LOST': '与数据库的连接中断，操作已停止，请重试',
  'PROJECTION.NOT_FOUND': '没有这项数据',
  'PROJECTION.BEHIND': '数据正在更新，请几秒后重试',
  'PROJECTION.FAILED': '修改已记录，但数据更新出错，暂时不会显示；请在「系统状态」中查看',
  'PROJECTION.WORKER_RUNNING': '后台任务正在运行，暂时不能全部重新生成',

  // Organise and sync
  'JOBS.UNAVAILABLE': '后台任务正在重新启动，请稍后重试',
  'ORGANISE.ALREADY_RUNNING': '整理正在进行中，请等它结束',
  'ORGANISE.PROJECTIONS_BEHIND': '数据更新跟不上，整理已停止，请稍后重试',
  'ORGANISE.RUN_NOT_FOUND': '没有这次整理记录',
  'BULK.RUN_NOT_FOUND': '没有这次批量操作的记录',
  'BULK.TOO_MANY': '一次最多批量处理 20000 项，请缩小筛选范围',
  'SYNC.ALREADY_RUNNING': '同一类同步正在进行中，请等它结束',
  'SYNC.RUN_NOT_FOUND': '没有这次同步记录',
  'UPSTREAM.MALFORMED': '供应商返回的数据有误，请稍后重试',
  'UPSTREAM.REJECTED': '供应商拒绝了请求，请稍后重试',
  'UPSTREAM.UNAVAILABLE': '供应商暂时无法连接，请稍后重试',
  'UPSTREAM.PAGE_LIMIT': '每页数量超出供应商的限制',
  'SIMULATOR.UNKNOWN_LINK': '演示供应商中没有这个货源',
  'SIMULATOR.UNKNOWN_CATEGORY': '演示供应商中没有这个类目',

  // Uploads
  'UPLOAD.FILE_REQUIRED': '请选择要上传的图片',
  'UPLOAD.INVALID': '上传失败，请重新选择图片',
  'UPLOAD.MALFORMED': '上传的内容不完整或格式不对，请重新选择图片上传',
  'UPLOAD.TOO_LARGE': '图片太大，请压缩后再上传',
  'UPLOAD.UNSUPPORTED_TYPE': '不支持的文件类型，只接受 png、jpg、webp、gif 图片',
};

/** When the request never reached the server, or the answer was not the server's own. */
export const NETWORK_TEXT = '网络连接失败，请检查网络后重试';
const byStatus = (status: number) =>
  status >= 500 ? '服务器暂时无法处理，请稍后重试' : status === 404 ? '要找的内容不存在' : status === 401 ? CODE_TEXT['AUTH.UNAUTHENTICATED']! : '请求未被接受，请刷新页面后重试';

type Err = Partial<ApiError> & { message?: string };

/** An error as the page shows it: Chinese, with the counts its details give where they help. */
export function errorText(e: unknown): string {
  const err = (e ?? {}) as Err;
  if (!err.code || typeof err.status !== 'number') return NETWORK_TEXT;
  const d = (err.details ?? {}) as Record<string, unknown>;
  const n = (k: string) => (typeof d[k] === 'number' ? (d[k] as number) : null);
  switch (err.code) {
    case 'CATEGORY.HAS_CHILDREN':
      if (n('childCount')) return `类目下还有 ${n('childCount')} 个子类目，请先删除或移走它们`;
      break;
    case 'TAG_GROUP.HAS_TAGS':
      if (n('tagCount')) return `标签组里还有 ${n('tagCount')} 个标签，请先删除或移走它们`;
      break;
    case 'FAMILY.NOT_EMPTY': {
      const parts = [n('memberCount') ? `${n('memberCount')} 个货源` : '', n('goodCount') ? `${n('goodCount')} 个商品` : ''].filter(Boolean);
      if (parts.length) return `系列中还有 ${parts.join('、')}，不能删除`;
      break;
    }
    case 'CATEGORY.IN_USE':
    case 'COUNTRY.IN_USE':
    case 'TAG.IN_USE': {
      const counts = (d.counts ?? {}) as Record<string, number>;
      const parts = [counts.goods ? `${counts.goods} 个商品` : '', counts.links ? `${counts.links} 个货源` : ''].filter(Boolean);
      const what = err.code === 'CATEGORY.IN_USE' ? '类目' : err.code === 'COUNTRY.IN_USE' ? '国家' : '标签';
      if (parts.length) return `${what}仍被 ${parts.join('、')} 使用，不能删除`;
      break;
    }
    case 'VALIDATION_FAILED': {
      const fields = Object.values(fieldErrors(e));
      if (fields.length === 1) return fields[0]!;
      break;
    }
  }
  return CODE_TEXT[err.code] ?? byStatus(err.status);
}

/** What a field is called on the pages, by the last part of the path the server names. */
const FIELD_LABEL: Record<string, string> = {
  name: '名称',
  price: '价格',
  code: '代码',
  color: '颜色',
  tagFontColor: '标签颜色',
  image: '图片地址',
  icon: '图标地址',
  description: '描述',
  goodPriority: '优先级',
  sortOrder: '排序',
  username: '用户名',
  password: '密码',
  keyword: '关键词',
  size: '尺码',
  printCount: '印花面数',
  craft: '工艺',
  logistics: '物流',
  goodIds: '商品',
  tagIds: '标签',
  ids: '顺序',
  originGoodId: '货源',
  goodId: '商品',
  parentId: '上级类目',
  groupId: '标签组',
  countryId: '国家',
  categoryId: '类目',
  dimension: '规格维度',
  secondaryOriginGoodIds: '合并货源',
  familyNameKey: '系列键',
};

/** Per field, what is wrong with it, in words (formats the field has; otherwise by the kind of issue). */
function issueText(field: string, issue: { code?: string; message?: string }): string {
  const label = FIELD_LABEL[field] ?? '该项';
  if (field === 'price') return issue.message?.includes('greater than zero') ? '价格须大于 0' : '价格须为大于 0 的金额，最多两位小数，如 59.90';
  if (field === 'color' || field === 'tagFontColor') return `${label}须为 #rgb 或 #rrggbb，如 #d81b60`;
  if (field === 'image' || field === 'icon') return `${label}须以 http:// 或 https:// 开头，或使用上传的图片`;
  if (field === 'code') return '代码须为两个英文字母，如 US';
  if (field === 'password') return '密码至少 12 个字符';
  switch (issue.code ?? '') {
    case 'too_small':
      return `${label}不能为空`;
    case 'too_big':
      return `${label}太长了`;
    case 'invalid_type':
      return `请填写${label}`;
    case 'custom':
      return `${label}须包含可见的文字`;
    default:
      return `${label}的格式不对`;
  }
}

/**
 * A validation failure's issues by field (the path's first part, as the form names its fields: `price`,
 * `tags`), in Chinese; empty for any other error.
 */
export function fieldErrors(e: unknown): Record<string, string> {
  const err = (e ?? {}) as Err;
  if (err.code !== 'VALIDATION_FAILED' || !Array.isArray(err.details)) return {};
  const out: Record<string, string> = {};
  for (const issue of err.details as { path?: string; code?: string; message?: string }[]) {
    const path = (issue.path ?? '').split('.');
    const field = path[0] || '';
    const last = [...path].reverse().find((p) => !/^\d+$/.test(p)) ?? field;
    out[field] ??= issueText(last, issue);
  }
  return out;
}
