import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, baseUrl, request } from '../../test/http.js';
import { until } from '../../test/waiting.js';
import type { components } from '../contract-types.js';
import { currentCurrencies } from '../currencies/seed.js';
import { documentPdf } from '../documents/pdf.js';
import { pdfText } from '../documents/test/pdfText.js';
import { letterContent } from '../offers/pdf.js';
import { moneyText } from '../rewardLetters/letters.js';
import { formatMoney, formatPerShare } from './format.js';

type Schemas = components['schemas'];
type PeopleImport = Schemas['PeopleImport'];
type Letter = Schemas['OfferLetter'];

/**
 * Every current ISO 4217 currency whose decimals the browser's and Node's Intl (CLDR) give
 * differently, listed by hand from the ISO 4217 table (api/reference-data/codes-all.csv) and CLDR:
 * ISO 2, CLDR 0 for fifteen currencies, ISO 3, CLDR 0 for the Iraqi dinar; and ISO "N.A." (no minor
 * unit, kept as 0), CLDR 2 for the precious metals, bond units, SDR and the other X-codes.
 */
const ISO_DECIMALS: Record<string, number> = {
  AFN: 2, ALL: 2, COP: 2, HUF: 2, IDR: 2, IRR: 2, KPW: 2, LAK: 2, LBP: 2, MGA: 2, MMK: 2, PKR: 2, SOS: 2, SYP: 2, YER: 2,
  IQD: 3,
  XAG: 0, XAU: 0, XBA: 0, XBB: 0, XBC: 0, XBD: 0, XDR: 0, XPD: 0, XPT: 0, XSU: 0, XTS: 0, XUA: 0, XXX: 0,
};
const CODES = Object.keys(ISO_DECIMALS).sort();

/** A million in each currency, typed as a person would in an HRIS file, its minor units, and how it reads. */
const MILLION = { typed: '1,000,000', major: 1_000_000 };
const minorOfMillion = (code: string): number => MILLION.major * 10 ** (ISO_DECIMALS[code] ?? NaN);
/** Intl writes a currency's code before the figure with a no-break space; PDFs and letters read it as a space. */
const spaced = (text: string): string => text.replace(/\u00a0/g, ' ');
/** How a million reads: the code, then the figure; XXX ("no currency") has the generic sign ¤ instead. */
const million = (code: string): string => (code === 'XXX' ? '¤1,000,000' : `${code} 1,000,000`);

describe('a currency\'s decimals are ISO 4217\'s everywhere', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Forint Co');
    admin = company.users.admin as TestUser;
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    for (const flag of ['team_view', 'total_rewards']) {
      expect((await request(`/api/internal/companies/${company.id}/release-flags/${flag}`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    }
  });

  it('lists, by comparing the shipped table with Intl, exactly the currencies listed by hand', () => {
    const intlDecimals = (code: string): number | undefined =>
      new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits;
    const disagreeing = currentCurrencies()
      .filter((currency) => (currency.minor_unit ?? 0) !== intlDecimals(currency.code))
      .map((currency) => currency.code)
      .sort();
    expect(disagreeing).toEqual(CODES);
    for (const code of CODES) expect(currentCurrencies().find((currency) => currency.code === code)?.minor_unit ?? 0, code).toBe(ISO_DECIMALS[code]);
  });

  it('writes a million of each in whole units, a letter exactly, and a share price to at least the currency\'s decimals', () => {
    // By hand: 1,000,000 major units, whatever the decimals; a letter adds the decimals only when there is a fraction.
    for (const code of CODES) {
      expect(spaced(formatMoney({ amount: minorOfMillion(code), currency: code })), code).toBe(million(code));
      expect(spaced(moneyText(minorOfMillion(code), code)), code).toBe(million(code));
    }
    expect(spaced(moneyText(100_000_050, 'HUF'))).toBe('HUF 1,000,000.50');
    expect(spaced(moneyText(1_000_000_005, 'IQD'))).toBe('IQD 1,000,000.005');
    expect(spaced(formatPerShare(12.5, 'HUF'))).toBe('HUF 12.50');
    expect(spaced(formatPerShare(12.5, 'XAU'))).toBe('XAU 12.5');
  });

  it('imports a salary of a million in each from an HRIS file, shows it in the team table, and writes it in the statement and offer PDFs', async () => {
    const rows = CODES.map((code, index) => `M${index},Person,${code},${code.toLowerCase()}@forint.test,Engineer,US,${code},2024-01-01,software_engineering,p3,"${MILLION.typed}"`);
    const file = ['Emp ID,First Name,Last Name,Email,Job Title,Country,Pay Currency,Hire Date,Job Family,Job Level,Annual Base Salary', ...rows].join('\n');
    const uploaded = await request<{ data: Schemas['PeopleImportFile'] } & ErrorBody>('/api/people-imports/files?kind=employees&filename=people.csv', {
      method: 'POST',
      headers: { ...bearer(admin), 'content-type': 'text/csv' },
      body: file,
    });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const started = await request<{ data: PeopleImport } & ErrorBody>(`/api/people-imports/files/${uploaded.body.data.id}/runs`, { method: 'POST', headers: bearer(admin), json: { dryRun: false } });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    let run = started.body.data;
    await until(async () => {
      run = (await request<{ data: PeopleImport }>(`/api/people-imports/runs/${run.id}`, { headers: bearer(admin) })).body.data;
      return run.status !== 'queued' && run.status !== 'running';
    }, 60_000);
    expect(run.status, JSON.stringify(run.errors)).toBe('applied');

    // The team table answers the stored minor units: a million forints is 100,000,000 fillér.
    const table = await request<{ data: Schemas['TeamTable'] }>('/api/team/employees/table?columns=name&columns=baseSalary&limit=100', { headers: bearer(admin) });
    expect(table.status).toBe(200);
    const byCode = new Map(table.body.data.rows.map((row) => [row.baseSalary?.currency ?? '', row]));
    for (const code of CODES) expect(byCode.get(code)?.baseSalary, code).toEqual({ amount: minorOfMillion(code), currency: code });
    expect(byCode.get('HUF')?.baseSalary?.amount).toBe(100_000_000);

    // The statement PDF an admin previews says a million, not a hundred million (nor ten thousand of gold).
    for (const code of ['HUF', 'IQD', 'COP', 'XAU']) {
      const employeeId = byCode.get(code)?.id ?? '';
      const reply = await fetch(`${baseUrl()}/api/total-rewards/statements/${employeeId}/pdf`, { headers: bearer(admin) });
      expect(reply.status, code).toBe(200);
      const text = spaced(pdfText(Buffer.from(await reply.arrayBuffer())));
      expect(text, code).toContain(million(code));
      expect(text, code).not.toContain(`${code} 100,000,000`);
    }

    // The offer letter's PDF, one package a currency, each a base of a million.
    const letter = {
      company: { name: 'Forint Co', brandColor: '#1f2a44', logoText: 'FC' },
      candidate: { firstName: 'Eszter', lastName: 'Kovács' },
      title: 'Engineer',
      locationName: 'Budapest',
      startDate: '2030-02-03',
      expiresOn: '2030-01-15',
      welcomeMessage: '',
      benefitsSummary: '',
      equityFacts: null,
      acceptance: null,
      packages: CODES.map((code) => {
        const money = { amount: minorOfMillion(code), currency: code };
        return { id: code, label: code, package: { base: money, totalCash: money, bonusTargetPercent: null, bonusTarget: null, variable: null, signOn: null, equity: null } };
      }),
    } as unknown as Letter;
    const offerText = spaced(pdfText(await documentPdf(letterContent(letter))));
    for (const code of CODES) expect(offerText, code).toContain(`Base salary a year\n${million(code)}`);
    expect(offerText).not.toMatch(/HUF 100,000,000|IQD 1,000,000,000|XAU 10,000\b/);
  }, 120_000);
});
