import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import '../modules.js';
import { builtinRoles } from './builtinRoles.js';
import { declaredPermissions } from './permissions.js';

const DOC = path.resolve(import.meta.dirname, '..', '..', '..', 'docs', 'permissions.md');

describe('docs/permissions.md', () => {
  it('shows exactly what each built-in role grants', () => {
    const doc = readFileSync(DOC, 'utf8');
    const roles = builtinRoles();
    for (const [name, permission] of declaredPermissions()) {
      const cells = roles.map((role) => (role.permissions[name] ?? []).map((g) => `${g.authority} (${g.scope})`).join(', ') || '—');
      expect(doc).toContain(`| \`${name}\` | ${cells.join(' | ')} |`);
      expect(doc).toContain(`- \`${name}\` (scopes: ${permission.scopes.join(', ')}) — ${permission.description}`);
    }
  });
});
