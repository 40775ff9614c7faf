import { deflateSync, crc32 } from 'node:zlib';
import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, baseUrl, request } from '../../test/http.js';
import type { components } from '../contract-types.js';
import { pdfText } from '../documents/test/pdfText.js';
import { switchOnPlanning } from '../meritCycles/test/fixtures.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';
import { closedCycleWithLetters, releaseLetters } from './test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };

/** A PNG of one colour, made here byte by byte (8-bit RGB, no filter). */
function png(width: number, height: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

const dataUrl = (bytes: Buffer, type = 'image/png') => `data:${type};base64,${bytes.toString('base64')}`;

/** The image objects a PDF draws, as "width×height" (their dictionaries are never compressed). */
function pdfImages(pdf: Buffer): string[] {
  const text = pdf.toString('latin1');
  return [...text.matchAll(/<<[^>]*\/Subtype \/Image[^>]*>>/g)].map((match) => {
    const dict = match[0];
    return `${/\/Width (\d+)/.exec(dict)?.[1]}×${/\/Height (\d+)/.exec(dict)?.[1]}`;
  });
}

/*
 * The company's logo in its documents: kept once by its SHA-256, named by each letter's version as
 * issued. Logo A is 40×20 pixels, logo B 30×30, so the PDF's image says which one it drew.
 */
describe('the company logo in letters and statements', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let ada: TestUser;
  let people: Record<string, string> = {};
  const logoA = png(40, 20, [200, 30, 30]);
  const logoB = png(30, 30, [30, 30, 200]);
  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: string } = {}) =>
    request<T & ErrorBody>(url, { method: init.method ?? 'GET', headers: { ...bearer(user), ...(init.ifMatch ? { 'If-Match': init.ifMatch } : {}) }, json: init.json });
  const pdfOf = async (user: TestUser, path: string) => {
    const reply = await fetch(`${baseUrl()}${path}`, { headers: bearer(user) });
    expect(reply.status, path).toBe(200);
    return Buffer.from(await reply.arrayBuffer());
  };
  async function setLogo(logo: string | null) {
    const current = (await call<Data<Schemas['CommunicateSettings']>>(admin, '/api/total-rewards/settings')).body.data;
    return call<Data<Schemas['CommunicateSettings']>>(admin, '/api/total-rewards/settings', { method: 'PATCH', ifMatch: `"${current.version}"`, json: { appearance: { ...current.appearance, logo } } });
  }
  const fixtureCall = (url: string, init: { method: string; token: string; json?: unknown; ifMatch?: number }) =>
    request(url, { method: init.method, headers: { Authorization: `Bearer ${init.token}`, ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) }, json: init.json });

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Logo Co');
    admin = company.users.admin as TestUser;
    ada = await createTestUser(db, { companyId: company.id, roleIds: [company.roleIds.get('employee') ?? ''] });
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    await switchOnPlanning((url, init) => request(url, { method: init.method, headers: { Authorization: `Bearer ${init.token}` }, json: init.json }), support.token, company.id);
    expect((await request(`/api/internal/companies/${company.id}/release-flags/total_rewards`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    people = { ada: await insertEmployee(db, company.id, { firstName: 'Ada', lastName: 'Anchor', userId: ada.id, performanceRating: 'meets' }) };
    await insertPay(db, company.id, people.ada as string, [{ type: 'base_salary', amount: 10_000_000, currency: 'USD', effectiveDate: '2024-01-01' }]);
  }, 300_000);

  it('refuses a logo that is not a PNG or JPEG, whatever it claims to be', async () => {
    const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 '), Buffer.alloc(20)]);
    const asWebp = await setLogo(dataUrl(webp, 'image/webp'));
    expect(asWebp.status).toBe(400);
    expect(asWebp.body.errors?.[0]).toEqual({ field: 'body.appearance.logo', message: 'must be a PNG or JPEG image: letters and statements draw the logo, and cannot draw WebP' });
    // A PNG signature with nothing behind it.
    const broken = await setLogo(dataUrl(Buffer.concat([logoA.subarray(0, 8), Buffer.from('not an image at all, just words')])));
    expect(broken.status).toBe(400);
    expect(broken.body.errors?.[0]?.field).toBe('body.appearance.logo');
    // A PNG header whose pixels are not there.
    const truncated = await setLogo(dataUrl(logoA.subarray(0, 40)));
    expect(truncated.status).toBe(400);
    expect(truncated.body.errors?.[0]).toEqual({ field: 'body.appearance.logo', message: 'is damaged: it cannot be read as an image' });
  });

  it('draws the logo a letter was issued with, also after the logo changes', async () => {
    expect((await setLogo(dataUrl(logoA))).status).toBe(200);
    const cycleId = await closedCycleWithLetters(fixtureCall, admin.token, { name: 'Logo 2026', effectiveDate: '2026-04-01' }, { [people.ada as string]: { meritAmount: { amount: 400_000, currency: 'USD' } } });
    await releaseLetters(fixtureCall, admin.token, cycleId, 'releaseToEmployees');
    const letterPdf = `/api/v2/meritCycles/${cycleId}/rewardLetters/employees/${people.ada}/pdf`;

    const before = await pdfOf(ada, letterPdf);
    expect(pdfImages(before)).toEqual(['40×20']);
    expect(pdfText(before)).toContain('$104,000');
    // The statement draws the company's logo of today.
    expect(pdfImages(await pdfOf(ada, '/api/total-rewards/statement/pdf'))).toEqual(['40×20']);

    expect((await setLogo(dataUrl(logoB))).status).toBe(200);
    const after = await pdfOf(ada, letterPdf);
    expect(pdfImages(after)).toEqual(['40×20']);
    expect(pdfImages(await pdfOf(ada, '/api/total-rewards/statement/pdf'))).toEqual(['30×30']);

    // Each image is kept once, by its content.
    const stored = await db('document_images').where({ company_id: company.id }).orderBy('width').select('width', 'height', 'sha256');
    expect(stored.map((row: { width: number; height: number }) => `${row.width}×${row.height}`)).toEqual(['30×30', '40×20']);

    // Without a logo the statement draws the mark of initials, no image (the control).
    expect((await setLogo(null)).status).toBe(200);
    const plain = await pdfOf(ada, '/api/total-rewards/statement/pdf');
    expect(pdfImages(plain)).toEqual([]);
    expect(pdfText(plain)).toContain('LC');
    // ...while the letter still draws the logo it was issued with.
    expect(pdfImages(await pdfOf(ada, letterPdf))).toEqual(['40×20']);
  });
});
