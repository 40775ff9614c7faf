import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigHome, paybench } from './support.js';

const dir = (name: string): string => mkdtempSync(path.join(tmpdir(), `paybench-${name}-`));

// `paybench admin backup|restore` work on the install directly, with the server's environment: here
// a SQLite install of its own (DATABASE_URL empty), whichever engine the rest of the pass uses.
describe('paybench admin backup and restore', () => {
  it('backs up a SQLite install into a new directory and restores it into another data directory', () => {
    const home = freshConfigHome();
    const install = { XDG_CONFIG_HOME: home, DATABASE_URL: '', PAYBENCH_DATA_DIR: dir('install'), PAYBENCH_STORAGE: 'directory', PAYBENCH_ROLES: '' };
    const target = path.join(dir('backups'), 'first');
    const backedUp = paybench(['admin', 'backup', target], install);
    expect(backedUp.stderr).toBe('');
    expect(backedUp.code).toBe(0);
    expect(backedUp.stdout).toMatch(/^Backed up the sqlite database into .*first \(\d+\.\d MB\)\.\n/);
    expect(backedUp.stdout).toContain('The secrets key is not in the backup');
    expect(JSON.parse(readFileSync(path.join(target, 'manifest.json'), 'utf8'))).toMatchObject({ format: 'paybench-backup-1', engine: 'sqlite', database: 'paybench.sqlite' });

    const elsewhere = { ...install, PAYBENCH_DATA_DIR: dir('restored') };
    const restored = paybench(['admin', 'restore', target], elsewhere);
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(/^Restored the backup of \d{4}-\d{2}-\d{2}T/);
    expect(existsSync(path.join(elsewhere.PAYBENCH_DATA_DIR, 'paybench.sqlite'))).toBe(true);

    const again = paybench(['admin', 'restore', target], elsewhere);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/paybench\.sqlite exists: stop Paybench and move it away first; restore does not overwrite a database\./);
  });
});
