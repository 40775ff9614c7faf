import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_ROLES } from './builtinRoles.js';
import { PERMISSIONS, PERMISSION_NAMES } from './permissions.js';

const DOC = path.resolve(import.meta.dirname, '..', '..', '..', 'docs', 'permissions.md');

describe('docs/permissions.md', () => {
  it('shows exactly what each built-in role grants', () => {
    const doc = readFileSync(DOC, 'utf8');
    for (const name of PERMISSION_NAMES) {
      const cells = BUILTIN_ROLES.map((role) => (role.permissions[name] ?? []).map((g) => `${g.authority} (${g.scope})`).join(', ') || '—');
      expect(doc).toContain(`| \`${name}\` | ${cells.join(' | ')} |`);
      expect(doc).toContain(`- \`${name}\` (scopes: ${PERMISSIONS[name].scopes.join(', ')}) — ${PERMISSIONS[name].description}`);
    }
  });
});
