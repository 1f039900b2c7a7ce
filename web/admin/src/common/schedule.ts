/**
 * A schedule in words (`30 2 * * *` → 每天 02:30): the forms the service's schedules take (README,
 * Configuration); anything else is 按自定义计划运行, never the cron text itself.
 */
const pad = (n: string) => n.padStart(2, '0');
const WEEKDAY = ['日', '一', '二', '三', '四', '五', '六', '日'];
const num = (s: string) => /^\d+$/.test(s);

export function scheduleText(cron: string | null): string {
  if (!cron) return '已关闭';
  const parts = cron.trim().split(/\s+/);
  if (parts.length !== 5) return '按自定义计划运行';
  const [m, h, dom, mon, dow] = parts as [string, string, string, string, string];
  if (mon !== '*') return '按自定义计划运行';
  const every = /^\*\/(\d+)$/;
  if (every.test(m) && h === '*' && dom === '*' && dow === '*') return `每 ${every.exec(m)![1]} 分钟`;
  if (num(m) && h === '*' && dom === '*' && dow === '*') return m === '0' ? '每小时整点' : `每小时第 ${Number(m)} 分`;
  if (num(m) && every.test(h) && dom === '*' && dow === '*') return `每 ${every.exec(h)![1]} 小时（第 ${Number(m)} 分）`;
  if (!num(m) || !num(h)) return '按自定义计划运行';
  const time = `${pad(h)}:${pad(m)}`;
  if (dom === '*' && dow === '*') return `每天 ${time}`;
  if (dom === '*' && /^[0-7](,[0-7])*$/.test(dow))
    return `每周${dow
      .split(',')
      .map((d) => WEEKDAY[Number(d)])
      .join('、')} ${time}`;
  if (dow === '*' && /^\d{1,2}$/.test(dom)) return `每月 ${Number(dom)} 日 ${time}`;
  return '按自定义计划运行';
}

/** A time as people say it: 今天 14:00, 明天 02:30, else the date. */
export function whenText(iso: string | null | undefined, now = new Date()): string {
  if (!iso) return '—';
  const t = new Date(iso);
  const day = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const diff = Math.round((day(t) - day(now)) / 86_400_000);
  const hm = `${pad(String(t.getHours()))}:${pad(String(t.getMinutes()))}`;
  if (diff === 0) return `今天 ${hm}`;
  if (diff === 1) return `明天 ${hm}`;
  if (diff === -1) return `昨天 ${hm}`;
  return `${t.getMonth() + 1}月${t.getDate()}日 ${hm}`;
}
