import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import type { Knex } from 'knex';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCompany, testDb } from '../../test/factories.js';
import type { CompanyScope } from '../access/caller.js';
import type { AppDeps } from '../deps.js';
import type { DownloadRow } from '../downloads/store.js';
import { DirectoryStorage } from '../downloads/storage.js';
import { JobQueue } from '../jobs/queue.js';
import { type JobRow, requestCancel } from '../jobs/store.js';
import type { Realtime } from '../realtime/server.js';
import { documentBulkPdfJob as bulkPdfKind, documentPdfJob as pdfKind } from './jobs.js';
import {
  companyBranding,
  createTemplate,
  documentVersionsOf,
  findDocumentVersion,
  getDocumentVersion,
  htmlDigest,
  renderDocument,
  renderDocuments,
  updateTemplate,
  versionPdf,
} from './service.js';
import { pdfText } from './test/pdfText.js';
import { readZip } from './test/readZip.js';
import { refusal, until } from '../../test/waiting.js';

const log = pino({ level: 'silent' });
/*
 * The document kinds under types of this test's own: the shared test server's worker runs the real
 * types on the same database, and would otherwise take some of these jobs into its own storage.
 */
const documentPdfJob = { ...pdfKind, type: 'test.documentPdf' };
const documentBulkPdfJob = { ...bulkPdfKind, type: 'test.documentBulkPdf' };

const LETTER = {
  key: 'test.rewardLetter',
  title: 'Reward letter — {{firstName}} {{lastName}}',
  body: [
    'Dear {{firstName}},',
    '',
    'We are pleased to confirm your pay from {{effectiveDate}}.',
    '',
    '# Your pay',
    '| Base salary | {{baseSalary}} |',
    '{{table components}}',
    '| **Total** | {{total}} |',
    '',
    'Kind regards,',
    '{{signatory}}',
  ].join('\n'),
};
const OFFERED = { firstName: 'text', lastName: 'text', effectiveDate: 'text', baseSalary: 'text', components: 'rows', total: 'text', signatory: 'text' } as const;

const valuesFor = (firstName: string, lastName = 'Lovelace') => ({
  firstName,
  lastName,
  effectiveDate: '1 January 2027',
  baseSalary: '$120,000.00',
  components: [{ label: 'Bonus target', amount: '$12,000.00' }],
  total: '$132,000.00',
  signatory: 'Grace Hopper',
});

describe('documents on a real database', () => {
  let db: Knex;
  let scope: CompanyScope;
  let otherScope: CompanyScope;
  let ownerUserId: string;
  let storage: DirectoryStorage;
  let queue: JobQueue;
  /** Every job change the queue announced: what the owner's screen would see. */
  const announced: { jobId: string; status: string; progress: number }[] = [];

  const jobRow = async (id: string): Promise<JobRow | undefined> => db<JobRow>('jobs').where({ id }).first();
  const finished = async (id: string): Promise<JobRow> => {
    await until(async () => ['succeeded', 'failed', 'cancelled'].includes((await jobRow(id))?.status ?? ''));
    return (await jobRow(id)) as JobRow;
  };
  const render = async (firstName: string, subjectId = 'employee-1') =>
    renderDocument(db, scope, { templateKey: LETTER.key, branding: await companyBranding(db, scope), createdBy: ownerUserId, subjectType: 'employee', subjectId, variables: valuesFor(firstName) });
  const downloadBytes = async (downloadId: string): Promise<{ row: DownloadRow; bytes: Buffer }> => {
    const row = (await db<DownloadRow>('downloads').where({ id: downloadId }).first()) as DownloadRow;
    return { row, bytes: await buffer(storage.read(row.storage_key)) };
  };

  beforeAll(async () => {
    db = await testDb();
    const company = await createTestCompany(db, 'Lovelace Analytical Engines');
    const other = await createTestCompany(db, 'Other Co');
    scope = { companyId: company.id };
    otherScope = { companyId: other.id };
    ownerUserId = company.users.admin?.id ?? '';
    await createTemplate(db, scope, ownerUserId, LETTER, { variables: OFFERED });
    storage = new DirectoryStorage(mkdtempSync(path.join(os.tmpdir(), 'paybench-documents-test-')));
    const realtime: Realtime = {
      toUser: (_user, _event, payload) => void announced.push(payload as (typeof announced)[number]),
      toCompany: () => undefined,
      disconnect: () => undefined,
      close: async () => undefined,
    };
    // The test needs only the storage of the server's pieces.
    const deps = { downloads: storage, log } as unknown as AppDeps;
    queue = new JobQueue(db, log, realtime, { pollMs: 20 }).registerKind(documentPdfJob, deps).registerKind(documentBulkPdfJob, deps);
    await queue.worker.start();
  });

  afterAll(async () => {
    await queue.worker.stop();
  });

  it('escapes HTML in variables and keeps the text as given', async () => {
    const version = await render('<script>alert("hi")</script>');
    expect(version.html).not.toContain('<script');
    expect(version.html).toContain('Dear &lt;script&gt;alert(&quot;hi&quot;)&lt;/script&gt;,');
    expect(version.html).toContain('<h1 style="font-size:1.5rem;margin:0 0 16px">Reward letter — &lt;script&gt;');
    expect(version.html).toContain('>Lovelace Analytical Engines</span>');
    expect(version.title).toBe('Reward letter — <script>alert("hi")</script> Lovelace');
    expect(version.variables.firstName).toBe('<script>alert("hi")</script>');
    expect(version.htmlSha256).toBe(htmlDigest(version.html));
    expect(version.content.branding).toEqual({ companyName: 'Lovelace Analytical Engines', accentColor: '#3b5bdb', logoText: 'LA' });
  });

  it('refuses an unknown variable with a clear error, writing nothing', async () => {
    const variables: Record<string, unknown> = valuesFor('Ada');
    delete variables.signatory;
    const error = await refusal(
      renderDocument(db, scope, { templateKey: LETTER.key, branding: await companyBranding(db, scope), createdBy: ownerUserId, subjectType: 'employee', subjectId: 'employee-unknown', variables: variables as ReturnType<typeof valuesFor> }),
    );
    expect(error).toMatchObject({ status: 400, code: 'unknown_variable', errors: [{ field: 'variables.signatory' }] });
    expect(error.message).toMatch(/^The template uses \{\{signatory\}\}, which has no value here \(values were given for: baseSalary, components, effectiveDate, firstName, lastName, total\)/);
    expect(await documentVersionsOf(db, scope, 'employee', 'employee-unknown')).toEqual([]);
    // A template naming a variable the module does not offer is refused when it is saved.
    const saved = await refusal(createTemplate(db, scope, ownerUserId, { key: 'test.typo', title: 'T', body: 'Dear {{fristName}},' }, { variables: OFFERED }));
    expect(saved).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'body.body', message: expect.stringContaining('{{fristName}} is not a variable of this document') }] });
  });

  it('never changes a version: rendering again (after the template changed) makes a new one', async () => {
    const first = await render('Ada', 'employee-immutable');
    const template = await createTemplate(db, scope, ownerUserId, { ...LETTER, key: 'test.changing' });
    const changed = await updateTemplate(db, scope, { actorUserId: ownerUserId, id: template.id, version: 1, input: { title: LETTER.title, body: `${LETTER.body}\n\nP.S. Congratulations.` } });
    expect(changed.version).toBe(2);
    expect(await refusal(updateTemplate(db, scope, { actorUserId: ownerUserId, id: template.id, version: 1, input: LETTER }))).toMatchObject({ status: 409, code: 'version_conflict' });
    const again = await render('Ada', 'employee-immutable');
    expect(again.id).not.toBe(first.id);
    expect((await findDocumentVersion(db, scope, first.id))?.html).toBe(first.html);
    expect((await documentVersionsOf(db, scope, 'employee', 'employee-immutable')).map((v) => v.id)).toEqual([again.id, first.id]);
    // The database refuses an update too (a trigger, on both engines).
    await expect(db('document_versions').where({ id: first.id }).update({ html: '<p>forged</p>' })).rejects.toThrow(/immutable/);
    expect((await getDocumentVersion(db, scope, first.id)).html).toBe(first.html);
  });

  it("another company's scope cannot read a version", async () => {
    const version = await render('Ada', 'employee-private');
    expect(await findDocumentVersion(db, otherScope, version.id)).toBeUndefined();
    expect(await refusal(getDocumentVersion(db, otherScope, version.id))).toMatchObject({ status: 404 });
    expect(await refusal(versionPdf(db, otherScope, version.id))).toMatchObject({ status: 404 });
    expect(await documentVersionsOf(db, otherScope, 'employee', 'employee-private')).toEqual([]);
  });

  it('the PDF job saves a download of the owner with the document’s text', async () => {
    const version = await render('Zoë', 'employee-pdf');
    const job = await queue.start(documentPdfJob, { companyId: scope.companyId, ownerUserId, input: { versionId: version.id } });
    const done = await finished(job.id);
    expect(done.status).toBe('succeeded');
    const { downloadId } = JSON.parse(done.result ?? '{}') as { downloadId: string };
    const { row, bytes } = await downloadBytes(downloadId);
    expect(row).toMatchObject({ company_id: scope.companyId, owner_user_id: ownerUserId, job_id: job.id, kind: 'document', filename: 'reward-letter-zoe-lovelace.pdf', content_type: 'application/pdf' });
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(bytes);
    expect(text.replace(/\n/g, '')).toContain('Zoë Lovelace');
    expect(text).toContain('$132,000.00');

    // A job of another company cannot reach the version.
    const foreign = await queue.start(documentPdfJob, { companyId: otherScope.companyId, ownerUserId, input: { versionId: version.id } });
    expect(await finished(foreign.id)).toMatchObject({ status: 'failed', message: 'This document is no longer available.' });
  });

  it('renders 1,000 letters, then draws them as one ZIP of PDFs in one job with rising progress', async () => {
    const startedRender = performance.now();
    const versions = await renderDocuments(db, scope, {
      templateKey: LETTER.key,
      branding: await companyBranding(db, scope),
      createdBy: ownerUserId,
      documents: Array.from({ length: 1000 }, (_, index) => ({ subjectType: 'employee', subjectId: `bulk-${index}`, variables: valuesFor(`Person${index}`, 'Bulk') })),
    });
    const renderMs = performance.now() - startedRender;

    const startedJob = performance.now();
    const job = await queue.start(documentBulkPdfJob, { companyId: scope.companyId, ownerUserId, input: { versionIds: versions.map((v) => v.id), filename: 'reward-letters-2027.zip' } });
    const done = await finished(job.id);
    const jobMs = performance.now() - startedJob;
    expect(done.status).toBe('succeeded');
    expect(JSON.parse(done.result ?? '{}')).toMatchObject({ documents: 1000, missing: 0 });

    const progress = announced.filter((change) => change.jobId === job.id && change.status === 'running').map((change) => change.progress);
    expect(progress.length).toBeGreaterThanOrEqual(100);
    expect(progress.every((value, index) => index === 0 || value >= (progress[index - 1] ?? 0))).toBe(true);
    expect(new Set(progress).size).toBeGreaterThanOrEqual(99);

    const { row, bytes } = await downloadBytes(JSON.parse(done.result ?? '{}').downloadId as string);
    expect(row).toMatchObject({ filename: 'reward-letters-2027.zip', content_type: 'application/zip', kind: 'document' });
    const entries = readZip(bytes);
    expect(entries).toHaveLength(1000);
    expect(entries[0]?.name).toBe('reward-letter-person0-bulk.pdf');
    expect(entries.every((entry) => entry.data.subarray(0, 5).toString('latin1') === '%PDF-')).toBe(true);
    expect(pdfText(entries[999]?.data ?? Buffer.alloc(0))).toContain('Person999');
    // eslint-disable-next-line no-console -- the timing the report quotes
    console.info(`documents: rendered 1,000 versions in ${Math.round(renderMs)} ms; the bulk PDF job took ${Math.round(jobMs)} ms (${(bytes.length / 1e6).toFixed(1)} MB)`);
  });

  it('a bulk archive names repeated titles apart and counts versions that are gone', async () => {
    const one = await render('Ada', 'employee-twin-1');
    const two = await render('Ada', 'employee-twin-2');
    const job = await queue.start(documentBulkPdfJob, { companyId: scope.companyId, ownerUserId, input: { versionIds: [one.id, 'no-such-version', two.id] } });
    const done = await finished(job.id);
    expect(JSON.parse(done.result ?? '{}')).toMatchObject({ documents: 2, missing: 1 });
    const { row, bytes } = await downloadBytes(JSON.parse(done.result ?? '{}').downloadId as string);
    expect(row.filename).toBe('documents.zip');
    expect(readZip(bytes).map((entry) => entry.name)).toEqual(['reward-letter-ada-lovelace.pdf', 'reward-letter-ada-lovelace-2.pdf']);
  });

  it('a bulk job stops at its next progress report when cancelled, leaving no download', async () => {
    const versions = await renderDocuments(db, scope, {
      templateKey: LETTER.key,
      branding: await companyBranding(db, scope),
      createdBy: ownerUserId,
      documents: Array.from({ length: 300 }, (_, index) => ({ subjectType: 'employee', subjectId: `cancel-${index}`, variables: valuesFor(`Cancel${index}`) })),
    });
    const job = await queue.start(documentBulkPdfJob, { companyId: scope.companyId, ownerUserId, input: { versionIds: versions.map((v) => v.id) } });
    await until(async () => ((await jobRow(job.id))?.progress ?? 0) >= 5);
    await requestCancel(db, scope, job.id);
    expect(await finished(job.id)).toMatchObject({ status: 'cancelled' });
    expect(await db('downloads').where({ job_id: job.id }).first()).toBeUndefined();
  });
});
