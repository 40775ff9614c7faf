import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { hasPermission, resolvePermissions } from './permissions.js';

describe('the permission check (spec §5)', () => {
  const perms = {
    bands: [{ authority: 'edit' as const, scope: 'all' }],
    team: [{ authority: 'view' as const, scope: 'reports' }],
  };

  it('edit needs an edit entry; view is met by edit or view', () => {
    expect(hasPermission(perms, 'bands', 'edit', undefined)).toBe(true);
    expect(hasPermission(perms, 'bands', 'view', undefined)).toBe(true);
    expect(hasPermission(perms, 'team', 'view', undefined)).toBe(true);
    expect(hasPermission(perms, 'team', 'edit', undefined)).toBe(false);
  });

  it('a requested scope must equal the entry’s scope, or the entry must be `all`', () => {
    expect(hasPermission(perms, 'team', 'view', 'reports')).toBe(true);
    expect(hasPermission(perms, 'team', 'view', 'all')).toBe(false);
    expect(hasPermission(perms, 'bands', 'view', 'reports')).toBe(true);
  });

  it('refuses a permission that is not granted', () => {
    expect(hasPermission(perms, 'offers', 'view', undefined)).toBe(false);
  });

  it('logs and refuses an unsupported authority or missing permissions', () => {
    const lines: string[] = [];
    const log = pino({ level: 'error' }, { write: (line: string) => lines.push(line) });
    expect(hasPermission(perms, 'bands', 'admin', undefined, log)).toBe(false);
    expect(hasPermission(undefined, 'bands', 'view', undefined, log)).toBe(false);
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual([
      'unsupported permission authority',
      'permissions unavailable for the permission check',
    ]);
  });

  it('merges roles so edit absorbs view in the same scope, keeping narrower scopes apart', () => {
    const { resolved, all } = resolvePermissions([
      { team: [{ authority: 'view', scope: 'all' }] },
      { team: [{ authority: 'edit', scope: 'all' }, { authority: 'view', scope: 'reports' }] },
    ]);
    expect(resolved.team).toEqual([
      { authority: 'edit', scope: 'all' },
      { authority: 'view', scope: 'reports' },
    ]);
    expect(all.team).toHaveLength(3);
  });
});
