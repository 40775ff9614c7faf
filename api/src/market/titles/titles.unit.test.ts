import { describe, expect, it } from 'vitest';
import { searchExecutiveTitles } from '../executive/service.js';
import { familyFromTitle, readFamilyOfTitle } from '../levelling/titles.js';
import { searchCatalog } from '../service.js';
import { readTitle } from './index.js';

describe('the title index', () => {
  it.each([
    ['backend developer', 'software_engineering'],
    ['Frontend Developer', 'software_engineering'],
    ['Senior Full-stack Developer II', 'software_engineering'],
    ['SRE', 'infrastructure_engineering'],
    ['Data Scientist', 'data_science'],
    ['Product Manager', 'product_management'],
    ['Recruiter', 'recruiting'],
    ['Account Executive', 'sales'],
    // From the BLS occupation titles: "Accountants and Auditors" is Accounting's occupation.
    ['Auditor', 'accounting'],
  ])('reads “%s” as %s', (title, family) => {
    expect(readTitle(title)).toMatchObject({ kind: 'family', jobFamilyId: family });
  });

  it('knows a nurse as an occupation no family covers', () => {
    expect(readTitle('nurse')).toMatchObject({ kind: 'no_family', entry: { title: 'Registered Nurses', source: 'occupation' } });
    expect(readTitle('Lead Nurse').kind).toBe('no_family');
  });
});

describe('every title search', () => {
  it('finds Software Engineering for developers and Infrastructure for SRE in the explorer’s job-family search', () => {
    expect(searchCatalog('backend developer')).toEqual(['software_engineering']);
    expect(searchCatalog('frontend developer')).toEqual(['software_engineering']);
    expect(searchCatalog('SRE')).toEqual(['infrastructure_engineering']);
    expect(searchCatalog('nurse')).toEqual([]);
    expect(searchCatalog('astronaut')).toEqual([]);
    // A typo still finds its family, fuzzily.
    expect(searchCatalog('Backend Enginer')[0]).toBe('software_engineering');
  });

  it('levels titles through the index', () => {
    expect(familyFromTitle('Backend Developer')?.family.id).toBe('software_engineering');
    expect(familyFromTitle('SRE')?.family.id).toBe('infrastructure_engineering');
    expect(readFamilyOfTitle('Nurse')).toEqual({ family: null, matched: 'Registered Nurses' });
  });

  it('finds no executive for a nurse or an SRE', () => {
    expect(searchExecutiveTitles('nurse')).toEqual([]);
    expect(searchExecutiveTitles('SRE')).toEqual([]);
    expect(searchExecutiveTitles('CEO')[0]?.titleId).toBe('ceo');
  });
});
