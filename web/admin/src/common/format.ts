export const fmtTime = (s: string | null | undefined) => (s ? new Date(s).toLocaleString('zh-CN') : '—');
