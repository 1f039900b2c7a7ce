import { useEffect, useState } from 'react';
import { api } from '../api';

/**
 * Who did something, in words: the administrator by name (GET /users), the service's own actors as
 * what they are (the schedule, the demo, organisation), an operator at the command line by login.
 * Never an id.
 */
const SYSTEM: Record<string, string> = {
  'system:sync': '定时同步',
  'system:demo': '演示数据初始化',
  'system:start': '系统启动',
  'system:organise': '自动整理',
  'system:schedule': '定时任务',
};

let users: Promise<Map<string, string>> | null = null;
function loadUsers(): Promise<Map<string, string>> {
  users ??= api.get<{ items: { id: string; username: string }[] }>('/users').then((r) => new Map(r.items.map((u) => [u.id, u.username])));
  users.catch(() => (users = null));
  return users;
}

export function actorText(by: string | null | undefined, names: Map<string, string> | null): string {
  if (!by) return '—';
  if (SYSTEM[by]) return SYSTEM[by]!;
  if (by.startsWith('system:')) return '系统';
  if (by.startsWith('operator:')) return `命令行（${by.slice('operator:'.length) || '运维'}）`;
  if (!names) return '…';
  return names.get(by) ?? '已删除的用户';
}

/** `actorText` with the users' names loaded once per page load. */
export function useActor(): (by: string | null | undefined) => string {
  const [names, setNames] = useState<Map<string, string> | null>(null);
  useEffect(() => {
    let live = true;
    loadUsers().then(
      (m) => live && setNames(m),
      () => live && setNames(new Map()),
    );
    return () => {
      live = false;
    };
  }, []);
  return (by) => actorText(by, names);
}
