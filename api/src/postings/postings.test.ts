import { Ajv } from 'ajv';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, baseUrl, request } from '../../test/http.js';
import { jobEnded, until } from '../../test/waiting.js';
import type { components } from '../contract-types.js';
import { pdfText } from '../documents/test/pdfText.js';
import { insertEmployee } from '../team/test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type Posting = Schemas['JobPosting'];

const USD = (major: number) => ({ amount: Math.round(major * 100), currency: 'USD' });
const EUR = (major: number) => ({ amount: Math.round(major * 100), currency: 'EUR' });

/*
 * Job postings over real HTTP: a software engineer (P3) posted in New York City, Denver and Berlin,
 * each range from the live band set of its pay zone — New York City $150,000 – $200,000,
 * Denver $120,500.50 – $160,499.99 (rounded inwards to $1,000: $121,000 – $160,000), Germany
 * €70,000 – €90,000 — then narrowed, checked, exported, and flagged by a later band set.
 */
describe('job postings', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let analyst: TestUser;
  let employee: TestUser;
  let recruiter: TestUser;
  const ids = { job: '', set: '', nyc: '', denver: '', germany: '', posting: '' };

  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: number } = {}) =>
    request<T & ErrorBody>(url, {
      method: init.method ?? 'GET',
      headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) },
      ...(init.json !== undefined ? { json: init.json } : {}),
    });

  const PLACES = [{ locationId: 'us_new_york' }, { locationId: 'us_denver' }, { locationId: 'de_berlin' }];
  const BENEFITS = 'Medical, dental and vision cover; 401(k) with a 4% match; 20 days of paid leave.';

  const setBand = async (setId: string, zoneId: string, figures: { min: Schemas['Money']; mid: Schemas['Money']; max: Schemas['Money'] }) => {
    const set = await call<Data<Schemas['BandSetDetail']>>(admin, `/api/bands/band-sets/${setId}`);
    const band = set.body.data.bands.find((candidate) => candidate.payZoneId === zoneId && candidate.companyJobId === ids.job);
    if (!band) throw new Error(`no band in zone ${zoneId}`);
    const edited = await call(admin, `/api/bands/band-sets/${setId}/bands/${band.id}`, { method: 'PATCH', ifMatch: band.version, json: figures });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
  };

  const publish = async (setId: string) => {
    const current = await call<Data<Schemas['BandSetDetail']>>(admin, `/api/bands/band-sets/${setId}`);
    const published = await call(admin, `/api/bands/band-sets/${setId}/publish`, { method: 'POST', ifMatch: current.body.data.version, json: {} });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
  };

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Postings Co');
    [admin, analyst, employee] = [company.users.admin as TestUser, company.users.analyst as TestUser, company.users.employee as TestUser];
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    for (const flag of ['offer_letters', 'bands']) expect((await call(support, `/api/internal/companies/${company.id}/release-flags/${flag}`, { method: 'PUT', json: { enabled: true } })).status).toBe(200);
    const role = await call<Data<Schemas['Role']>>(admin, '/api/roles', { method: 'POST', json: { name: 'Recruiter (New York)', permissions: { postings: [{ authority: 'edit', scope: 'all' }], bands: [{ authority: 'view', scope: 'zones' }] } } });
    expect(role.status, JSON.stringify(role.body)).toBe(200);
    recruiter = await createTestUser(db, { companyId: company.id, roleIds: [role.body.data.id] });

    expect((await call(admin, '/api/bands/pay-zones')).status).toBe(200);
    const zone = async (json: unknown) => {
      const reply = await call<Data<Schemas['PayZone']>>(admin, '/api/bands/pay-zones', { method: 'POST', json });
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      return reply.body.data.id;
    };
    ids.nyc = await zone({ name: 'New York City', differentialBp: 2000, rules: [{ country: 'US', metros: ['us_new_york'] }], viewerUserIds: [recruiter.id] });
    ids.denver = await zone({ name: 'Denver', rules: [{ country: 'US', metros: ['us_denver'] }] });
    ids.germany = await zone({ name: 'Germany', differentialBp: -2000, rules: [{ country: 'DE' }], currency: 'EUR' });
    const job = await call<Data<Schemas['CompanyJob']>>(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p3', title: 'Software Engineer' } });
    expect(job.status, JSON.stringify(job.body)).toBe(201);
    ids.job = job.body.data.id;
    const set = await call<Data<Schemas['BandSetDetail']>>(admin, '/api/bands/band-sets', { method: 'POST', json: { name: 'Bands 2026', currency: 'USD' } });
    ids.set = set.body.data.id;
    const built = await call(admin, `/api/bands/band-sets/${ids.set}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 } } });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    await setBand(ids.set, ids.nyc, { min: USD(150_000), mid: USD(175_000), max: USD(200_000) });
    await setBand(ids.set, ids.denver, { min: USD(120_500.5), mid: USD(140_000), max: USD(160_499.99) });
    await setBand(ids.set, ids.germany, { min: EUR(70_000), mid: EUR(80_000), max: EUR(90_000) });
    await publish(ids.set);
  });

  it('proposes each place’s range from its zone’s live band, in the zone’s currency, rounded inwards, and records the set', async () => {
    const created = await call<Data<Posting>>(admin, '/api/postings', { method: 'POST', json: { companyJobId: ids.job, locations: PLACES, benefitsDescription: BENEFITS, employerHeadcount: 120 } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.headers.get('etag')).toBe('"1"');
    const posting = created.body.data;
    ids.posting = posting.id;
    expect(posting).toMatchObject({ title: 'Software Engineer', state: 'draft', bandSetId: ids.set, bandSetName: 'Bands 2026', rounding: 1000, payPeriod: 'year', ownerUserId: admin.id });
    expect(posting.bandSetVersion).toEqual(expect.any(Number));
    expect(posting.locations.map((l) => [l.name, l.payZoneName, l.currency, l.range?.min.amount, l.range?.max.amount, l.outOfBand])).toEqual([
      ['New York City, NY', 'New York City', 'USD', 15_000_000, 20_000_000, false],
      // $120,500.50 rounds up to $121,000 and $160,499.99 down to $160,000: the range stays in the band.
      ['Denver, CO', 'Denver', 'USD', 12_100_000, 16_000_000, false],
      ['Berlin, BE, DE', 'Germany', 'EUR', 7_000_000, 9_000_000, false],
    ]);
    expect(posting.locations[1]?.band).toEqual({ min: USD(120_500.5), max: USD(160_499.99) });
    expect(posting.locations[0]?.payText).toBe(`New York City, NY: $150,000 to $200,000 a year (base salary), the range we in good faith expect to pay. Benefits and other compensation: ${BENEFITS}`);
    expect(posting.locations[2]?.payText).toContain('Berlin, BE, DE: €70,000 to €90,000 a year (base salary)');
    expect([...new Set(posting.checks.findings.map((f) => f.ruleId))].sort()).toEqual(['eu-de', 'us-co', 'us-ny', 'us-ny-nyc']);
    expect(posting.checks).toMatchObject({ meetsAll: true, outOfBand: false, headcount: 120 });
    const nyc = posting.checks.findings.find((f) => f.ruleId === 'us-ny-nyc' && f.requirement === 'range');
    expect(nyc).toMatchObject({ status: 'meets', sourceUrl: 'https://www.nyc.gov/site/cchr/media/salary-transparency.page', effectiveDate: '2022-11-01', locationKey: posting.locations[0]?.key });
  });

  it('lets the recruiter narrow a range within the band under If-Match; beyond the band it is flagged and needs approval', async () => {
    const narrowed = await call<Data<Posting>>(admin, `/api/postings/${ids.posting}`, { method: 'PATCH', ifMatch: 1, json: { locations: [PLACES[0], { locationId: 'us_denver', min: 12_500_000, max: 15_000_000 }, PLACES[2]] } });
    expect(narrowed.status, JSON.stringify(narrowed.body)).toBe(200);
    expect(narrowed.headers.get('etag')).toBe('"2"');
    expect(narrowed.body.data.locations[1]?.range).toEqual({ min: USD(125_000), max: USD(150_000) });
    expect(narrowed.body.data.locations[1]?.payText).toContain('Denver, CO: $125,000 to $150,000 a year');
    const stale = await call(admin, `/api/postings/${ids.posting}`, { method: 'PATCH', ifMatch: 1, json: { title: 'Engineer' } });
    expect(stale.status).toBe(409);
    expect(stale.headers.get('etag')).toBe('"2"');
    expect((await call(admin, `/api/postings/${ids.posting}`, { method: 'PATCH', json: { title: 'Engineer' } })).status).toBe(428);

    // $110,000 is below Denver's band minimum of $120,500.50.
    const beyond = await call<Data<Schemas['JobPostingPreview']>>(admin, '/api/postings/check', { method: 'POST', json: { companyJobId: ids.job, locations: [{ locationId: 'us_denver', min: 11_000_000, max: 15_000_000 }], employerHeadcount: 120, benefitsDescription: BENEFITS } });
    expect(beyond.status, JSON.stringify(beyond.body)).toBe(200);
    expect(beyond.body.data.checks).toMatchObject({ outOfBand: true, meetsAll: false });
    expect(beyond.body.data.checks.findings.find((f) => f.requirement === 'goodFaith')?.message).toBe('The range $110,000 – $150,000 goes beyond the band ($120,501 – $160,500) without approval.');
    const inverted = await call(admin, '/api/postings/check', { method: 'POST', json: { companyJobId: ids.job, locations: [{ locationId: 'us_denver', min: 15_000_000, max: 11_000_000 }] } });
    expect(inverted.status).toBe(400);
    expect(inverted.body.errors).toEqual([{ field: 'body.locations[0].min', message: 'must not be above max' }]);
  });

  it('opens a posting within its bands; one beyond waits for the offer approval rule’s approver', async () => {
    // New York City within its band, Denver beyond it: Denver's approval rule answers for the posting.
    const draft = await call<Data<Posting>>(admin, '/api/postings', { method: 'POST', json: { companyJobId: ids.job, title: 'Senior-ish engineer', locations: [PLACES[0], { locationId: 'us_denver', min: 11_000_000, max: 15_000_000 }], employerHeadcount: 120, benefitsDescription: BENEFITS } });
    expect(draft.status).toBe(201);
    const refused = await call(admin, `/api/postings/${draft.body.data.id}/transitions`, { method: 'POST', ifMatch: 1, json: { action: 'open' } });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('approval_rule_missing');
    const rules = await call(admin, '/api/offers/approval-settings', { method: 'PUT', ifMatch: 0, json: { rules: [{ mode: 'ordered', locationId: 'us_denver', approverUserIds: [analyst.id] }, { mode: 'ordered', approverUserIds: [admin.id] }] } });
    expect(rules.status, JSON.stringify(rules.body)).toBe(200);
    const waiting = await call<Data<Posting>>(admin, `/api/postings/${draft.body.data.id}/transitions`, { method: 'POST', ifMatch: 1, json: { action: 'open' } });
    expect(waiting.status, JSON.stringify(waiting.body)).toBe(200);
    expect(waiting.body.data.state).toBe('pendingApproval');
    expect(waiting.body.data.approval).toMatchObject({ requiredApprovals: 1, approverUserIds: [analyst.id], approvedBy: [] });
    expect((await call(admin, `/api/postings/${draft.body.data.id}/transitions`, { method: 'POST', ifMatch: 2, json: { action: 'approve' } })).status).toBe(403);
    const approved = await call<Data<Posting>>(analyst, `/api/postings/${draft.body.data.id}/transitions`, { method: 'POST', ifMatch: 2, json: { action: 'approve' } });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data.state).toBe('open');
    expect(approved.body.data.checks.findings.find((f) => f.requirement === 'goodFaith')?.status).toBe('meets');
    const closed = await call<Data<Posting>>(admin, `/api/postings/${draft.body.data.id}/transitions`, { method: 'POST', ifMatch: 3, json: { action: 'close' } });
    expect(closed.body.data.state).toBe('closed');

    const opened = await call<Data<Posting>>(admin, `/api/postings/${ids.posting}/transitions`, { method: 'POST', ifMatch: 2, json: { action: 'open' } });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body.data.state).toBe('open');
  });

  it('keeps every change in the audit log, with the ranges each wrote and the ranges an opening published', async () => {
    const audit = (await db('audit_events').where({ company_id: company.id, subject_id: ids.posting }).select('action', 'actor_user_id', 'details')) as { action: string; actor_user_id: string; details: string }[];
    expect(audit.map((entry) => entry.action).sort()).toEqual(['posting.created', 'posting.opened', 'posting.updated']);
    expect(audit.every((entry) => entry.actor_user_id === admin.id)).toBe(true);
    const opened = JSON.parse(audit.find((entry) => entry.action === 'posting.opened')?.details ?? '{}') as Record<string, unknown>;
    expect(opened).toMatchObject({
      state: 'open',
      version: 3,
      bandSetId: ids.set,
      ranges: [
        { place: 'New York City, NY', currency: 'USD', min: 15_000_000, max: 20_000_000 },
        { place: 'Denver, CO', currency: 'USD', min: 12_500_000, max: 15_000_000 },
        { place: 'Berlin, BE, DE', currency: 'EUR', min: 7_000_000, max: 9_000_000 },
      ],
    });
    const created = JSON.parse(audit.find((entry) => entry.action === 'posting.created')?.details ?? '{}') as { ranges?: { place: string; min: number | null }[] };
    expect(created.ranges?.find((range) => range.place === 'Denver, CO')?.min).toBe(12_100_000);
  });

  it('gives schema.org JobPosting JSON-LD whose baseSalary is a MonetaryAmount of a QuantitativeValue', async () => {
    const reply = await call<Data<{ jsonLd: Record<string, unknown>[]; texts: Schemas['JobPostingPayText'][] }>>(admin, `/api/postings/${ids.posting}/structured-data`);
    expect(reply.status).toBe(200);
    // The shape schema.org gives JobPosting, MonetaryAmount and QuantitativeValue (and the properties search engines require of a JobPosting).
    const shape = {
      type: 'object',
      required: ['@context', '@type', 'title', 'description', 'datePosted', 'hiringOrganization', 'jobLocation', 'baseSalary'],
      properties: {
        '@context': { const: 'https://schema.org/' },
        '@type': { const: 'JobPosting' },
        title: { type: 'string', minLength: 1 },
        description: { type: 'string', minLength: 1 },
        datePosted: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
        hiringOrganization: { type: 'object', required: ['@type', 'name'], properties: { '@type': { const: 'Organization' }, name: { type: 'string', minLength: 1 } } },
        jobLocation: { type: 'object', required: ['@type', 'address'], properties: { '@type': { const: 'Place' }, address: { type: 'object', required: ['@type', 'addressCountry'], properties: { '@type': { const: 'PostalAddress' }, addressCountry: { type: 'string', pattern: '^[A-Z]{2}$' } } } } },
        baseSalary: {
          type: 'object',
          additionalProperties: false,
          required: ['@type', 'currency', 'value'],
          properties: {
            '@type': { const: 'MonetaryAmount' },
            currency: { type: 'string', pattern: '^[A-Z]{3}$' },
            value: {
              type: 'object',
              additionalProperties: false,
              required: ['@type', 'minValue', 'maxValue', 'unitText'],
              properties: { '@type': { const: 'QuantitativeValue' }, minValue: { type: 'number' }, maxValue: { type: 'number' }, unitText: { enum: ['HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR'] } },
            },
          },
        },
      },
    };
    const validate = new Ajv({ strict: false }).compile(shape);
    for (const item of reply.body.data.jsonLd) expect(validate(item), JSON.stringify(validate.errors)).toBe(true);
    expect(reply.body.data.jsonLd.map((item) => item.baseSalary)).toEqual([
      { '@type': 'MonetaryAmount', currency: 'USD', value: { '@type': 'QuantitativeValue', minValue: 150_000, maxValue: 200_000, unitText: 'YEAR' } },
      { '@type': 'MonetaryAmount', currency: 'USD', value: { '@type': 'QuantitativeValue', minValue: 125_000, maxValue: 150_000, unitText: 'YEAR' } },
      { '@type': 'MonetaryAmount', currency: 'EUR', value: { '@type': 'QuantitativeValue', minValue: 70_000, maxValue: 90_000, unitText: 'YEAR' } },
    ]);
    expect(reply.body.data.jsonLd[0]?.hiringOrganization).toEqual({ '@type': 'Organization', name: 'Postings Co' });
    expect(reply.body.data.texts.map((text) => text.name)).toEqual(['New York City, NY', 'Denver, CO', 'Berlin, BE, DE']);

    // A remote, hourly posting: the same shape, its pay by the hour, and where applicants may be.
    const remote = await call<Data<Posting>>(admin, '/api/postings', { method: 'POST', json: { companyJobId: ids.job, payBasis: 'hourly', remote: true, hiringRegions: [{ countryCode: 'US', stateCode: 'CO' }, { countryCode: 'DE' }], locations: [PLACES[0]] } });
    expect(remote.status, JSON.stringify(remote.body)).toBe(201);
    const remoteLd = await call<Data<{ jsonLd: Record<string, unknown>[] }>>(admin, `/api/postings/${remote.body.data.id}/structured-data`);
    const [item] = remoteLd.body.data.jsonLd;
    expect(validate(item), JSON.stringify(validate.errors)).toBe(true);
    expect(item).toMatchObject({
      jobLocationType: 'TELECOMMUTE',
      applicantLocationRequirements: [
        { '@type': 'State', name: 'CO, US' },
        { '@type': 'Country', name: 'DE' },
      ],
      // $150,000 and $200,000 a year over 2,080 hours: $72.12 and $96.15 an hour.
      baseSalary: { '@type': 'MonetaryAmount', currency: 'USD', value: { '@type': 'QuantitativeValue', minValue: 72.12, maxValue: 96.15, unitText: 'HOUR' } },
    });
    const closedRemote = await call(admin, `/api/postings/${remote.body.data.id}/transitions`, { method: 'POST', ifMatch: 1, json: { action: 'close' } });
    expect(closedRemote.status).toBe(200);
  });

  it('states an hourly role per hour over a 2,080-hour year', async () => {
    const preview = await call<Data<Schemas['JobPostingPreview']>>(admin, '/api/postings/check', { method: 'POST', json: { companyJobId: ids.job, payBasis: 'hourly', locations: [{ locationId: 'us_new_york' }] } });
    // $150,000 / 2,080 = $72.1153… → $72.12; $200,000 / 2,080 = $96.1538… → $96.15.
    expect(preview.body.data.locations[0]?.payText).toBe('New York City, NY: $72.12 to $96.15 an hour (hourly wage), the range we in good faith expect to pay.');
  });

  it('keeps a recruiter limited to some pay zones to those zones', async () => {
    const own = await call<Data<Posting>>(recruiter, '/api/postings', { method: 'POST', json: { companyJobId: ids.job, locations: [{ locationId: 'us_new_york' }] } });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    expect(own.body.data.locations[0]?.band).toEqual({ min: USD(150_000), max: USD(200_000) });
    const other = await call(recruiter, '/api/postings', { method: 'POST', json: { companyJobId: ids.job, locations: [{ locationId: 'us_denver' }] } });
    expect(other.status).toBe(403);
    expect(other.body.message).toBe('Your salary-bands access does not reach the pay zone “Denver” of Denver, CO.');
    // Reading the admin's posting: the band of a zone out of reach is not shown (the posted range is public anyway).
    const read = await call<Data<Posting>>(recruiter, `/api/postings/${ids.posting}`);
    expect(read.body.data.locations.map((l) => l.band === null)).toEqual([false, true, true]);
    // Nor do the checks name it: Denver's range lies within its band, whose figures stay unsaid; New York City's are said.
    const goodFaith = read.body.data.checks.findings.filter((f) => f.requirement === 'goodFaith').map((f) => [f.jurisdiction, f.message]);
    expect(goodFaith).toContainEqual(['Colorado', 'The range lies within the band.']);
    expect(goodFaith).toContainEqual(['New York City', 'The range lies within the band ($150,000 – $200,000).']);
    expect(JSON.stringify(read.body.data.checks)).not.toMatch(/120,501|160,500|€90,000\)/);
    const adminRead = await call<Data<Posting>>(admin, `/api/postings/${ids.posting}`);
    expect(adminRead.body.data.checks.findings.filter((f) => f.requirement === 'goodFaith').map((f) => f.message)).toContain('The range lies within the band ($120,501 – $160,500).');
    expect((await call(employee, '/api/postings')).status).toBe(403);
    expect((await call(analyst, '/api/postings', { method: 'POST', json: { companyJobId: ids.job, locations: PLACES } })).status).toBe(403);
  });

  it('exports one row per posting and place for an applicant-tracking system', async () => {
    const started = await call<Data<Schemas['BackgroundJob']>>(admin, '/api/postings/exports', { method: 'POST', json: { format: 'csv', state: 'open' } });
    expect(started.status).toBe(202);
    const job = await jobEnded(admin, started.body.data.id);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const text = await (await fetch(`${baseUrl()}/api/downloads/${job.downloadId}`, { headers: bearer(admin) })).text();
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => [row.Location, row.Currency, row.Minimum, row.Maximum, row['Band set'], row['Meets every rule in force']])).toEqual([
      // Major units with the currency's decimals, as every export writes them.
      ['New York City, NY', 'USD', '150000.00', '200000.00', 'Bands 2026', 'yes'],
      ['Denver, CO', 'USD', '125000.00', '150000.00', 'Bands 2026', 'yes'],
      ['Berlin, BE, DE', 'EUR', '70000.00', '90000.00', 'Bands 2026', 'yes'],
    ]);

    // XLSX: the same rows, amounts as numbers.
    const xlsxJob = await call<Data<Schemas['BackgroundJob']>>(admin, '/api/postings/exports', { method: 'POST', json: { format: 'xlsx', state: 'open' } });
    const xlsxEnded = await jobEnded(admin, xlsxJob.body.data.id);
    expect(xlsxEnded.status, JSON.stringify(xlsxEnded)).toBe('succeeded');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await (await fetch(`${baseUrl()}/api/downloads/${xlsxEnded.downloadId}`, { headers: bearer(admin) })).arrayBuffer());
    const sheet = workbook.getWorksheet('Job postings');
    const header = (sheet?.getRow(1).values as unknown[]).slice(1);
    const column = (name: string) => header.indexOf(name) + 1;
    expect(header).toContain('Hiring regions');
    const denver = sheet?.getRow(3);
    expect([denver?.getCell(column('Location')).value, denver?.getCell(column('Pay period')).value, denver?.getCell(column('Minimum')).value, denver?.getCell(column('Maximum')).value]).toEqual(['Denver, CO', 'year', 125_000, 150_000]);
  });

  it('flags the postings a new live band set no longer holds, and tells their owner', async () => {
    const copy = await call<Data<Schemas['BandSetDetail']>>(admin, `/api/bands/band-sets/${ids.set}/duplicate`, { method: 'POST', json: { name: 'Bands 2027' } });
    expect(copy.status, JSON.stringify(copy.body)).toBe(201);
    // Denver's band moves up to $130,000 – $170,000: the posted $125,000 minimum falls below it.
    await setBand(copy.body.data.id, ids.denver, { min: USD(130_000), mid: USD(150_000), max: USD(170_000) });
    await publish(copy.body.data.id);
    await until(async () => (await call<Data<Posting[]>>(admin, '/api/postings?stale=true')).body.data.some((p) => p.id === ids.posting));
    const flagged = await call<Data<Posting>>(admin, `/api/postings/${ids.posting}`);
    expect(flagged.body.data.stale?.reason).toBe('The live band set “Bands 2027” no longer holds: Denver, CO: $125,000 – $150,000 is outside the new band $130,000 – $170,000.');
    // The posting's own checks say it per place, against the live band, so the editor shows it too.
    expect(flagged.body.data.checks.findings.filter((f) => f.requirement === 'liveBand').map((f) => [f.jurisdiction, f.status, f.message])).toEqual([
      ['New York City, NY', 'meets', 'The live band set “Bands 2027” still holds the range $150,000 – $200,000 (live band $150,000 – $200,000).'],
      ['Denver, CO', 'fails', 'The live band set “Bands 2027” no longer holds the range $125,000 – $150,000: the live band is $130,000 – $170,000. Propose the ranges again.'],
      ['Berlin, BE, DE', 'meets', 'The live band set “Bands 2027” still holds the range €70,000 – €90,000 (live band €70,000 – €90,000).'],
    ]);
    expect(flagged.body.data.checks.meetsAll).toBe(false);
    const subject = 'Paybench: The pay ranges of your posting “Software Engineer” no longer match the live bands.';
    await until(async () => Boolean(await db('outbox_emails').where({ to_address: admin.email, subject }).first()));
    // Proposing the places again takes the new set and clears the flag.
    const again = await call<Data<Posting>>(admin, `/api/postings/${ids.posting}`, { method: 'PATCH', ifMatch: flagged.body.data.version, json: { locations: PLACES } });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data).toMatchObject({ stale: null, bandSetId: copy.body.data.id, bandSetName: 'Bands 2027' });
    expect(again.body.data.locations[1]?.range).toEqual({ min: USD(130_000), max: USD(170_000) });
  });

  it('checks an offer for the posted job against the posted range as well as the band', async () => {
    const current = await call<Data<Posting>>(admin, `/api/postings/${ids.posting}`);
    // Denver's live band is now $130,000 – $170,000; the posting narrows it to $135,000 – $160,000 and stays open.
    const narrowed = await call<Data<Posting>>(admin, `/api/postings/${ids.posting}`, { method: 'PATCH', ifMatch: current.body.data.version, json: { locations: [PLACES[0], { locationId: 'us_denver', min: 13_500_000, max: 16_000_000 }, PLACES[2]] } });
    expect(narrowed.body.data.state).toBe('open');
    const offer = (base: number) => call<Data<Schemas['OfferChecks']>>(admin, '/api/offers/check', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p3', locationId: 'us_denver', currency: 'USD', package: { base } } });
    // $165,000: inside the band ($130,000 – $170,000), above the posted $160,000.
    const above = await offer(16_500_000);
    expect(above.status, JSON.stringify(above.body)).toBe(200);
    expect(above.body.data.band.position).toBe('inside');
    expect(above.body.data.postedRange).toEqual({ postingId: ids.posting, title: 'Software Engineer', place: 'Denver, CO', min: USD(135_000), max: USD(160_000), position: 'above' });
    expect(above.body.data.outOfRange).toBe(true);
    expect(above.body.data.reasons).toContain('The base salary is above the range posted for Denver, CO');
    const within = await offer(15_000_000);
    expect(within.body.data.postedRange?.position).toBe('within');
    expect(within.body.data.outOfRange).toBe(false);

    // The candidate's letter shows the range the posting published for the place.
    const candidate = await call<Data<{ id: string }>>(admin, '/api/candidates', { method: 'POST', json: { email: `lin-${company.id.slice(-6)}@candidates.test`, firstName: 'Lin', lastName: 'Okafor' } });
    expect(candidate.status, JSON.stringify(candidate.body)).toBe(201);
    const made = await call<Data<Schemas['Offer']>>(admin, '/api/offers', { method: 'POST', json: { candidateId: candidate.body.data.id, jobFamilyId: 'software_engineering', levelId: 'p3', locationId: 'us_denver', startDate: '2031-03-03', expiresOn: '2031-02-14', currency: 'USD', package: { base: 15_000_000 } } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const letter = await call<Data<Schemas['OfferLetter']>>(admin, `/api/offers/${made.body.data.id}/letter`);
    expect(letter.status, JSON.stringify(letter.body)).toBe(200);
    expect(letter.body.data.postedRange).toEqual({ min: USD(135_000), max: USD(160_000) });
    // So does its PDF: the base is $150,000, so $135,000 and $160,000 can only be the posted range.
    const pdf = await fetch(`${baseUrl()}/api/offers/${made.body.data.id}/pdf`, { headers: bearer(admin) });
    expect(pdf.status).toBe(200);
    const text = pdfText(Buffer.from(await pdf.arrayBuffer()));
    expect(text).toContain('Posted pay range');
    expect(text).toContain('$135,000');
    expect(text).toContain('$160,000');
    expect(text).toContain('$150,000');
  });
  it('prices a job without a band of its own by its grade’s band in the zone, rounded to the unit the company chose', async () => {
    const grade = await call<Data<Schemas['CompGrade']>>(admin, '/api/bands/grades', { method: 'POST', json: { key: 'G7', name: 'Grade 7' } });
    expect(grade.status, JSON.stringify(grade.body)).toBe(201);
    const job = await call<Data<Schemas['CompanyJob']>>(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p4', title: 'Senior Software Engineer' } });
    expect(job.status, JSON.stringify(job.body)).toBe(201);
    const graded = await call(admin, `/api/bands/jobs/${job.body.data.id}`, { method: 'PATCH', ifMatch: job.body.data.version, json: { gradeId: grade.body.data.id } });
    expect(graded.status, JSON.stringify(graded.body)).toBe(200);
    const live = (await call<Data<Schemas['BandSet'][]>>(admin, '/api/bands/band-sets')).body.data.find((set) => set.status === 'live');
    const next = await call<Data<Schemas['BandSetDetail']>>(admin, `/api/bands/band-sets/${live?.id ?? ''}/duplicate`, { method: 'POST', json: { name: 'Bands 2028' } });
    expect(next.status, JSON.stringify(next.body)).toBe(201);
    // Grade 7 in Denver: $101,250 – $128,750.
    const gradeBand = await call(admin, `/api/bands/band-sets/${next.body.data.id}/grade-bands`, { method: 'POST', json: { gradeId: grade.body.data.id, payZoneId: ids.denver, min: USD(101_250), mid: USD(115_000), max: USD(128_750) } });
    expect(gradeBand.status, JSON.stringify(gradeBand.body)).toBe(201);
    await publish(next.body.data.id);
    const preview = async (rounding: number) => {
      const reply = await call<Data<Schemas['JobPostingPreview']>>(admin, '/api/postings/check', { method: 'POST', json: { companyJobId: job.body.data.id, rounding, locations: [{ locationId: 'us_denver' }] } });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return reply.body.data.locations[0];
    };
    // Rounded inwards to $1,000: $102,000 – $128,000; to $5,000: $105,000 – $125,000.
    expect(await preview(1000)).toMatchObject({ bandSource: 'grade', payZoneName: 'Denver', band: { min: USD(101_250), max: USD(128_750) }, range: { min: USD(102_000), max: USD(128_000) } });
    expect((await preview(5000))?.range).toEqual({ min: USD(105_000), max: USD(125_000) });
  });

  it('counts the employees located in Minnesota for its threshold, unless the posting states a count', async () => {
    // Two active employees in Minneapolis–St. Paul and one who has left: 2 count in Minnesota.
    await insertEmployee(db, company.id, { firstName: 'Ada', lastName: 'North', locationId: 'us_minneapolis' });
    await insertEmployee(db, company.id, { firstName: 'Bo', lastName: 'North', locationId: 'us_minneapolis' });
    await insertEmployee(db, company.id, { firstName: 'Cy', lastName: 'Gone', locationId: 'us_minneapolis', status: 'terminated' });
    const size = async (extra: Record<string, unknown>) => {
      const checked = await call<Data<Schemas['JobPostingPreview']>>(admin, '/api/postings/check', { method: 'POST', json: { companyJobId: ids.job, locations: [{ locationId: 'us_minneapolis' }], ...extra } });
      expect(checked.status, JSON.stringify(checked.body)).toBe(200);
      return checked.body.data.checks.findings.find((f) => f.ruleId === 'us-mn' && f.requirement === 'employerSize');
    };
    const counted = await size({});
    expect(counted?.status).toBe('notApplicable');
    expect(counted?.message).toMatch(/^Minnesota applies to employers with 30 or more employees; this employer has 2 in Minnesota \(active employees counted by their recorded locations, of \d+ company-wide\)\.$/);
    expect(await size({ employerHeadcount: 120 })).toMatchObject({ status: 'meets', message: 'Minnesota applies to employers with 30 or more employees; this employer has 120 (the count the posting states; Minnesota counts employees there).' });
  });
});
