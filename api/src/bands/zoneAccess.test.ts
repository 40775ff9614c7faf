import { parse } from 'csv-parse/sync';
import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, baseUrl, request } from '../../test/http.js';
import { jobEnded } from '../../test/waiting.js';
import type { components } from '../contract-types.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type BandSetDetail = Schemas['BandSetDetail'];
type Evaluation = Schemas['BandEvaluation'];

/*
 * Permissions per pay zone: a recruiter whose `bands` grant has the scope `zones` sees and edits only
 * the zones that name them ("Who can see this zone"); the admin (scope all) sees every zone.
 */
describe('bands limited to some pay zones', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let recruiter: TestUser;
  let zoneEditor: TestUser;
  const ids = { us: '', uk: '', set: '', usBand: '', ukBand: '', sam: '', liz: '' };

  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: string | number } = {}) =>
    request<T & ErrorBody>(url, {
      method: init.method ?? 'GET',
      headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) },
      json: init.json,
    });

  const role = async (name: string, authority: 'view' | 'edit') => {
    const reply = await call<Data<Schemas['Role']>>(admin, '/api/roles', {
      method: 'POST',
      json: { name, permissions: { bands: [{ authority, scope: 'zones' }], team: [{ authority: 'view', scope: 'all' }], employeeCompensation: [{ authority: 'view', scope: 'all' }] } },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body.data.id;
  };

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Zoned Bands Co');
    admin = company.users.admin as TestUser;
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    expect((await request(`/api/internal/companies/${company.id}/release-flags/bands`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    recruiter = await createTestUser(db, { companyId: company.id, roleIds: [await role('Recruiter (zones)', 'view')] });
    zoneEditor = await createTestUser(db, { companyId: company.id, roleIds: [await role('Band editor (zones)', 'edit')] });

    const us = await call<Data<Schemas['PayZone']>>(admin, '/api/bands/pay-zones', { method: 'POST', json: { name: 'United States', rules: [{ country: 'US' }], viewerUserIds: [recruiter.id, zoneEditor.id] } });
    expect(us.status, JSON.stringify(us.body)).toBe(201);
    expect(us.body.data.viewerUserIds).toEqual([recruiter.id, zoneEditor.id]);
    ids.us = us.body.data.id;
    ids.uk = (await call<Data<Schemas['PayZone']>>(admin, '/api/bands/pay-zones', { method: 'POST', json: { name: 'United Kingdom', differentialBp: -1000, rules: [{ country: 'GB' }] } })).body.data.id;
    expect((await call(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p3' } })).status).toBe(201);
    ids.sam = await insertEmployee(db, company.id, { firstName: 'Sam', lastName: 'States', levelId: 'p3', locationId: 'us_new_york' });
    await insertPay(db, company.id, ids.sam, [{ type: 'base_salary', amount: 10_000_000, effectiveDate: '2024-01-01' }]);
    ids.liz = await insertEmployee(db, company.id, { firstName: 'Liz', lastName: 'London', levelId: 'p3', locationId: 'gb_london', countryCode: 'GB' });
    await insertPay(db, company.id, ids.liz, [{ type: 'base_salary', amount: 9_000_000, effectiveDate: '2024-01-01' }]);
    const set = await call<Data<BandSetDetail>>(admin, '/api/bands/band-sets', { method: 'POST', json: { name: 'Zoned bands', currency: 'USD' } });
    ids.set = set.body.data.id;
    const built = await call<Data<Schemas['BandBuildResult']>>(admin, `/api/bands/band-sets/${ids.set}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 } } });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    ids.usBand = built.body.data.bandSet.bands.find((band) => band.payZoneId === ids.us)?.id ?? '';
    ids.ukBand = built.body.data.bandSet.bands.find((band) => band.payZoneId === ids.uk)?.id ?? '';
    expect(ids.usBand && ids.ukBand).toBeTruthy();
  });

  it('shows the admin every zone, and the recruiter only the zone that names them', async () => {
    const all = await call<Data<Schemas['PayZone'][]>>(admin, '/api/bands/pay-zones');
    expect(all.body.data.map((zone) => zone.name)).toEqual(['Everywhere', 'United States', 'United Kingdom']);
    const theirs = await call<Data<Schemas['PayZone'][]>>(recruiter, '/api/bands/pay-zones');
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.map((zone) => zone.name)).toEqual(['United States']);

    const adminSet = await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${ids.set}`);
    expect(adminSet.body.data.bands.map((band) => band.payZoneId).sort()).toEqual([all.body.data[0]?.id, ids.us, ids.uk].sort());
    const recruiterSet = await call<Data<BandSetDetail>>(recruiter, `/api/bands/band-sets/${ids.set}`);
    expect(recruiterSet.body.data.bands.map((band) => band.id)).toEqual([ids.usBand]);
    expect(recruiterSet.body.data.bandCount).toBe(1);
    const list = await call<Data<Schemas['BandSet'][]>>(recruiter, '/api/bands/band-sets');
    expect(list.body.data.map((set) => [set.name, set.bandCount])).toEqual([['Zoned bands', 1]]);
    expect((await call<Data<Schemas['BandSet'][]>>(admin, '/api/bands/band-sets')).body.data.map((set) => set.bandCount)).toEqual([3]);
  });

  it('evaluates only the recruiter’s zones: their bands, their employees, their out-of-band lists', async () => {
    const adminView = await call<Data<Evaluation>>(admin, `/api/bands/band-sets/${ids.set}/evaluation`);
    expect(adminView.body.data.employees.map((entry) => entry.name).sort()).toEqual(['Liz London', 'Sam States']);
    const theirs = await call<Data<Evaluation>>(recruiter, `/api/bands/band-sets/${ids.set}/evaluation`);
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.bands.map((band) => band.bandId)).toEqual([ids.usBand]);
    expect(theirs.body.data.employees.map((entry) => [entry.name, entry.bandId])).toEqual([['Sam States', ids.usBand]]);
    const outNames = theirs.body.data.outOfBand.teams.flatMap((team) => team.employees.map((entry) => entry.name));
    expect(outNames).not.toContain('Liz London');
  });

  it('gives the recruiter a composite’s benchmarks in their zones only', async () => {
    const jobId = (await call<Data<Schemas['CompanyJob'][]>>(admin, '/api/bands/jobs')).body.data[0]?.id ?? '';
    const association = await call<Data<Schemas['MarketAssociation']>>(admin, `/api/bands/jobs/${jobId}/associations`, { method: 'POST', json: { market: { jobFamilyId: 'software_engineering', levelId: 'p3', locationId: 'us_new_york' } } });
    expect(association.status, JSON.stringify(association.body)).toBe(201);
    const all = await call<Data<Schemas['CompositeBenchmark']>>(admin, `/api/bands/jobs/${jobId}/composite`);
    expect(all.body.data.zones.map((zone) => zone.payZoneId)).toHaveLength(3);
    const theirs = await call<Data<Schemas['CompositeBenchmark']>>(recruiter, `/api/bands/jobs/${jobId}/composite`);
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.zones.map((zone) => zone.payZoneId)).toEqual([ids.us]);
    expect((await call(admin, `/api/bands/jobs/${jobId}/associations/${association.body.data.id}`, { method: 'DELETE' })).status).toBe(200);
  });

  it('exports only the recruiter’s zones', async () => {
    const started = await call<Data<Schemas['BackgroundJob']>>(recruiter, `/api/bands/band-sets/${ids.set}/exports`, { method: 'POST', json: {} });
    expect(started.status).toBe(202);
    const job = await jobEnded(recruiter, started.body.data.id);
    expect(job.status).toBe('succeeded');
    const text = await (await fetch(`${baseUrl()}/api/downloads/${job.downloadId}`, { headers: bearer(recruiter) })).text();
    expect((parse(text, { columns: true }) as Record<string, string>[]).map((row) => row['Pay zone'])).toEqual(['United States']);
  });

  it('lets a zone-limited editor change bands of their zones only: another zone’s band is 404, a change across zones 403', async () => {
    const set = (await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${ids.set}`)).body.data;
    const us = set.bands.find((band) => band.id === ids.usBand);
    const uk = set.bands.find((band) => band.id === ids.ukBand);
    if (!us || !uk) throw new Error('no bands');
    const figures = { min: { amount: 8_000_000, currency: 'USD' }, mid: { amount: 10_000_000, currency: 'USD' }, max: { amount: 12_000_000, currency: 'USD' } };
    const theirs = await call<Data<Schemas['Band']>>(zoneEditor, `/api/bands/band-sets/${ids.set}/bands/${us.id}`, { method: 'PATCH', ifMatch: us.version, json: figures });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
    const other = await call(zoneEditor, `/api/bands/band-sets/${ids.set}/bands/${uk.id}`, { method: 'PATCH', ifMatch: uk.version, json: figures });
    expect(other.status).toBe(404);
    const rebuild = await call(zoneEditor, `/api/bands/band-sets/${ids.set}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 } } });
    expect(rebuild.status).toBe(403);
    expect(rebuild.body.message).toBe('Your salary-bands access is limited to some pay zones; this change spans every zone, so it needs the bands permission over all zones.');
    expect((await call(zoneEditor, '/api/bands/pay-zones', { method: 'POST', json: { name: 'Mine', rules: [{ country: 'FR' }] } })).status).toBe(403);
    // The recruiter only views: no edit at all.
    expect((await call(recruiter, `/api/bands/band-sets/${ids.set}/bands/${us.id}`, { method: 'PATCH', ifMatch: theirs.body.data.version, json: figures })).status).toBe(403);
    // Nothing changed in the UK band.
    const after = (await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${ids.set}`)).body.data.bands.find((band) => band.id === uk.id);
    expect(after).toMatchObject({ min: uk.min, mid: uk.mid, max: uk.max, version: uk.version });
  });

  it('offers the zones scope for bands only, and names only the company’s people as a zone’s viewers', async () => {
    const wrongScope = await call(admin, '/api/roles', { method: 'POST', json: { name: 'Bad scope', permissions: { team: [{ authority: 'view', scope: 'zones' }] } } });
    expect(wrongScope.status).toBe(400);
    const outsider = (await createTestCompany(db, 'Outsider Zones Co')).users.admin as TestUser;
    const zone = (await call<Data<Schemas['PayZone'][]>>(admin, '/api/bands/pay-zones')).body.data.find((entry) => entry.id === ids.uk);
    const refused = await call(admin, `/api/bands/pay-zones/${ids.uk}`, { method: 'PATCH', ifMatch: zone?.version, json: { viewerUserIds: [outsider.id] } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ field: 'body.viewerUserIds', message: `${outsider.id} is not a user of the company` }]);
    // Naming the recruiter on the UK zone too shows them both.
    const named = await call<Data<Schemas['PayZone']>>(admin, `/api/bands/pay-zones/${ids.uk}`, { method: 'PATCH', ifMatch: zone?.version, json: { viewerUserIds: [recruiter.id] } });
    expect(named.status).toBe(200);
    expect((await call<Data<Schemas['PayZone'][]>>(recruiter, '/api/bands/pay-zones')).body.data.map((entry) => entry.name)).toEqual(['United States', 'United Kingdom']);
    expect((await call<Data<BandSetDetail>>(recruiter, `/api/bands/band-sets/${ids.set}`)).body.data.bands).toHaveLength(2);
  });
});
