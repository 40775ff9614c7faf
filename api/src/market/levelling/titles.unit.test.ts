import { describe, expect, it } from 'vitest';
import { findJobFamily } from '../../reference/catalog/index.js';
import { familyFromTitle, levelFromTitle, titleWords } from './titles.js';

const level = (title: string, family = familyFromTitle(title)?.family.id) => levelFromTitle(title, family ? findJobFamily(family) : undefined);

describe('reading job titles', () => {
  it('spells out abbreviations and corrects misspelt level words', () => {
    expect(titleWords('Sr. Backend Eng II')).toEqual(['senior', 'backend', 'engineer', 'ii']);
    expect(titleWords('Seniour Product Designer')).toEqual(['senior', 'product', 'designer']);
    expect(titleWords('SVP, Sales')).toEqual(['senior', 'vice', 'president', 'sales']);
    expect(titleWords('Princpal Data Scientist')[0]).toBe('principal');
  });

  it.each([
    ['Software Engineer', 'software_engineering', 'p3', 'default'],
    ['Senior Backend Engineer', 'software_engineering', 'p4', 'explicit'],
    ['Sr. Frontend Engineer', 'software_engineering', 'p4', 'explicit'],
    ['Staff Software Engineer', 'software_engineering', 'p5', 'explicit'],
    ['Principal Engineer', 'software_engineering', 'p6', 'explicit'],
    ['Junior Data Analyst', 'data_analytics', 'p2', 'explicit'],
    ['Software Engineer Intern', 'software_engineering', 'p1', 'explicit'],
    ['Site Reliability Engineer III', 'infrastructure_engineering', 'p4', 'explicit'],
    ['Engineering Manager', 'software_engineering', 'm3', 'explicit'],
    ['Senior Engineering Manager', 'software_engineering', 'm4', 'explicit'],
    ['Director of Engineering', 'software_engineering', 'm5', 'explicit'],
    ['Senior Director, Product Management', 'product_management', 'm6', 'explicit'],
    ['VP Marketing', 'marketing', 'e7', 'explicit'],
    ['SVP Sales', 'sales', 'e8', 'explicit'],
    ['CFO', 'finance', 'e9', 'explicit'],
    ['Product Manager', 'product_management', 'p3', 'default'],
    ['Senior Product Manager', 'product_management', 'p4', 'explicit'],
    ['Group Product Manager', 'product_management', 'm4', 'explicit'],
    ['Customer Support Specialist', 'customer_support', 's2', 'default'],
    ['Senior Customer Support Specialist', 'customer_support', 's3', 'explicit'],
    ['Seniour Product Designer', 'design', 'p4', 'explicit'],
    ['Account Executive', 'sales', 'p3', 'default'],
  ])('%s → %s, %s', (title, family, levelId, strength) => {
    expect(familyFromTitle(title)?.family.id).toBe(family);
    expect(level(title)).toMatchObject({ levelId, strength });
  });

  it('finds no family in a title that names none', () => {
    expect(familyFromTitle('Senior')).toBeNull();
    expect(familyFromTitle('Zzyzx Qwop')).toBeNull();
  });
});
