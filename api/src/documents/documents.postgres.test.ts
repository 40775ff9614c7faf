import { describe, expect, it } from 'vitest';
import { createTestCompany, testDb } from '../../test/factories.js';
import { asTenant } from '../db/rowSecurity.js';
import { brandingFor } from './content.js';
import { createTemplate, findDocumentVersion, renderDocument } from './service.js';

// Postgres only: the tables are under row-level security like every company-owned table, so a
// request running as the tenant role reaches its own documents and never another company's,
// even through a query that forgot its company.

describe('documents under row-level security', () => {
  it('a tenant transaction renders its own documents and sees no other company’s', async () => {
    const db = await testDb();
    const a = await createTestCompany(db, 'Documents A');
    const b = await createTestCompany(db, 'Documents B');
    const version = await asTenant(db, a.id, async (trx) => {
      await createTemplate(trx, { companyId: a.id }, null, { key: 'letter', title: 'Letter for {{name}}', body: 'Hello {{name}}.' });
      return renderDocument(trx, { companyId: a.id }, { templateKey: 'letter', branding: brandingFor('Documents A'), createdBy: null, subjectType: 'employee', subjectId: 'e1', variables: { name: 'Ada' } });
    });
    await asTenant(db, b.id, async (trx) => {
      expect(await trx('document_versions').where({ id: version.id }).first()).toBeUndefined();
      expect(await trx('document_templates').where({ company_id: a.id }).first()).toBeUndefined();
      expect(await findDocumentVersion(trx, { companyId: a.id }, version.id)).toBeUndefined();
    });
    await asTenant(db, a.id, async (trx) => {
      expect((await findDocumentVersion(trx, { companyId: a.id }, version.id))?.html).toBe(version.html);
      await expect(trx('document_versions').where({ id: version.id }).update({ title: 'changed' })).rejects.toThrow(/immutable/);
    });
  });
});
