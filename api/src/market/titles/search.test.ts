import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, testDb } from '../../../test/factories.js';
import { request } from '../../../test/http.js';
import type { components } from '../../contract-types.js';

type Schemas = components['schemas'];

let company: TestCompany;
let analyst: TestUser;

beforeAll(async () => {
  company = await createTestCompany(await testDb(), 'Title Search Co');
  analyst = company.users.analyst as TestUser;
});

const catalog = async (search: string): Promise<string[]> => {
  const reply = await request<{ data: Schemas['JobCatalogEntry'][] }>(`/api/benchmarking/job-catalog?search=${encodeURIComponent(search)}`, { headers: bearer(analyst) });
  expect(reply.status).toBe(200);
  return reply.body.data.map((entry) => entry.displayString);
};

const executives = async (search: string): Promise<string[]> => {
  const reply = await request<{ data: Schemas['ExecutiveTitleMatch'][] }>(`/api/benchmarking/executive-comp/titles?search=${encodeURIComponent(search)}`, { headers: bearer(analyst) });
  expect(reply.status).toBe(200);
  return reply.body.data.map((match) => match.title);
};

describe('searching job families by title', () => {
  it('finds Software Engineering for backend and frontend developers, not Business Development', async () => {
    expect(await catalog('backend developer')).toEqual(['Software Engineering']);
    expect(await catalog('Frontend Developer')).toEqual(['Software Engineering']);
    expect(await catalog('Senior Full-Stack Developer')).toEqual(['Software Engineering']);
  });

  it('finds the family that covers site reliability for SRE, not Recruiting', async () => {
    expect(await catalog('SRE')).toEqual(['Infrastructure Engineering']);
  });

  it('finds common titles through the synonyms and the BLS occupation titles', async () => {
    expect(await catalog('data scientist')).toEqual(['Data Science']);
    expect(await catalog('product manager')).toEqual(['Product Management']);
    expect(await catalog('recruiter')).toEqual(['Recruiting']);
    expect(await catalog('account executive')).toEqual(['Sales']);
    // "Accountants and Auditors" (SOC 13-2011) is Accounting's occupation.
    expect(await catalog('auditor')).toEqual(['Accounting']);
  });

  it('answers no match for a nurse, and for a word that matches nothing well', async () => {
    // No family covers healthcare: "nurse" is a known occupation outside the catalog.
    expect(await catalog('nurse')).toEqual([]);
    expect(await catalog('Registered Nurse')).toEqual([]);
    expect(await catalog('astronaut')).toEqual([]);
  });

  it('still forgives a typo', async () => {
    expect((await catalog('Backend Enginer'))[0]).toBe('Software Engineering');
  });
});

describe('searching executive titles', () => {
  it('finds no executive for a nurse or an SRE, and the CEO for CEO', async () => {
    expect(await executives('nurse')).toEqual([]);
    expect(await executives('SRE')).toEqual([]);
    expect((await executives('CEO'))[0]).toBe('Chief Executive Officer');
  });
});
