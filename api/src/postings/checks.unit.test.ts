import { describe, expect, it } from 'vitest';
import { type CheckedLocation, type CheckedPosting, checkPosting } from './checks.js';
import { type JurisdictionRule, jurisdictionRules } from './rules.js';

/*
 * Every shipped jurisdiction rule, checked with hand-written fixtures: a posting that meets it, one
 * that fails it, and an employer below its size threshold. The thresholds, places and requirements
 * below are written by hand from each law (not read from the data), so a wrong data row fails here.
 */

const TODAY = '2026-12-06';

// A band of $100,000 – $140,000 (cents); a range inside it ($110,000 – $130,000), one starting below it ($95,000).
const BAND = { min: 10_000_000, max: 14_000_000, currency: 'USD' };
const INSIDE = { min: 11_000_000, max: 13_000_000, currency: 'USD' };
const BELOW = { min: 9_500_000, max: 13_000_000, currency: 'USD' };
const EUR_BAND = { min: 6_000_000, max: 8_000_000, currency: 'EUR' };
const EUR_INSIDE = { min: 6_500_000, max: 7_500_000, currency: 'EUR' };

interface Case {
  ruleId: string;
  place: { countryCode: string; stateCode: string | null; city: string | null; name: string };
  threshold: number;
  benefits: boolean;
  /** The posting must show the range (false: only on request). */
  inPosting: boolean;
  hourly: boolean;
  effective: string;
  /** Where else the law asks for the range: in promotion and transfer opportunities, to whoever asks. */
  promotion?: boolean;
  onRequest?: boolean;
}

const us = (state: string, city: string | null, name: string) => ({ countryCode: 'US', stateCode: state, city, name });

const CASES: Case[] = [
  { ruleId: 'us-co', place: us('CO', 'Denver', 'Denver, CO'), threshold: 1, benefits: true, inPosting: true, hourly: true, effective: '2021-01-01', promotion: true },
  { ruleId: 'us-ca', place: us('CA', 'San Francisco', 'San Francisco, CA'), threshold: 15, benefits: false, inPosting: true, hourly: true, effective: '2023-01-01', onRequest: true },
  { ruleId: 'us-wa', place: us('WA', 'Seattle', 'Seattle, WA'), threshold: 15, benefits: true, inPosting: true, hourly: true, effective: '2023-01-01', promotion: true },
  { ruleId: 'us-ny', place: us('NY', 'Albany', 'Albany, NY'), threshold: 4, benefits: false, inPosting: true, hourly: true, effective: '2023-09-17', promotion: true },
  { ruleId: 'us-ny-nyc', place: us('NY', 'New York City', 'New York City, NY'), threshold: 4, benefits: false, inPosting: true, hourly: true, effective: '2022-11-01', promotion: true },
  { ruleId: 'us-hi', place: us('HI', 'Honolulu', 'Honolulu, HI'), threshold: 50, benefits: false, inPosting: true, hourly: true, effective: '2024-01-01' },
  { ruleId: 'us-md', place: us('MD', 'Baltimore', 'Baltimore, MD'), threshold: 1, benefits: true, inPosting: true, hourly: true, effective: '2024-10-01' },
  { ruleId: 'us-dc', place: us('DC', 'Washington', 'Washington, DC'), threshold: 1, benefits: false, inPosting: true, hourly: true, effective: '2024-06-30', promotion: true },
  { ruleId: 'us-il', place: us('IL', 'Chicago', 'Chicago, IL'), threshold: 15, benefits: true, inPosting: true, hourly: true, effective: '2025-01-01', promotion: true },
  { ruleId: 'us-mn', place: us('MN', 'Minneapolis', 'Minneapolis, MN'), threshold: 30, benefits: true, inPosting: true, hourly: true, effective: '2025-01-01' },
  { ruleId: 'us-nj', place: us('NJ', 'Newark', 'Newark, NJ'), threshold: 10, benefits: true, inPosting: true, hourly: true, effective: '2025-06-01', promotion: true },
  { ruleId: 'us-vt', place: us('VT', 'Burlington', 'Burlington, VT'), threshold: 5, benefits: false, inPosting: true, hourly: true, effective: '2025-07-01', promotion: true },
  { ruleId: 'us-ma', place: us('MA', 'Boston', 'Boston, MA'), threshold: 25, benefits: false, inPosting: true, hourly: true, effective: '2025-10-29', promotion: true, onRequest: true },
  { ruleId: 'us-nj-jersey-city', place: us('NJ', 'Jersey City', 'Jersey City, NJ'), threshold: 5, benefits: false, inPosting: true, hourly: true, effective: '2022-04-29' },
  { ruleId: 'us-oh-cleveland', place: us('OH', 'Cleveland', 'Cleveland, OH'), threshold: 15, benefits: false, inPosting: true, hourly: true, effective: '2025-10-27' },
  { ruleId: 'us-oh-columbus', place: us('OH', 'Columbus', 'Columbus, OH'), threshold: 15, benefits: false, inPosting: true, hourly: true, effective: '2027-12-18' },
  { ruleId: 'us-oh-toledo', place: us('OH', 'Toledo', 'Toledo, OH'), threshold: 15, benefits: false, inPosting: false, hourly: true, effective: '2025-06-25' },
  { ruleId: 'us-oh-cincinnati', place: us('OH', 'Cincinnati', 'Cincinnati, OH'), threshold: 15, benefits: false, inPosting: false, hourly: true, effective: '2020-03-13' },
  // The Pay Transparency Directive's Article 5, one rule per member state, each at its capital.
  ...[
    ['AT', 'Vienna'], ['BE', 'Brussels'], ['BG', 'Sofia'], ['HR', 'Zagreb'], ['CY', 'Nicosia'], ['CZ', 'Prague'], ['DK', 'Copenhagen'], ['EE', 'Tallinn'], ['FI', 'Helsinki'],
    ['FR', 'Paris'], ['DE', 'Berlin'], ['GR', 'Athens'], ['HU', 'Budapest'], ['IE', 'Dublin'], ['IT', 'Rome'], ['LV', 'Riga'], ['LT', 'Vilnius'], ['LU', 'Luxembourg'],
    ['MT', 'Valletta'], ['NL', 'Amsterdam'], ['PL', 'Warsaw'], ['PT', 'Lisbon'], ['RO', 'Bucharest'], ['SK', 'Bratislava'], ['SI', 'Ljubljana'], ['ES', 'Madrid'], ['SE', 'Stockholm'],
  ].map(([country = '', city = '']): Case => ({ ruleId: `eu-${country.toLowerCase()}`, place: { countryCode: country, stateCode: null, city, name: `${city}, ${country}` }, threshold: 1, benefits: false, inPosting: true, hourly: false, effective: '2026-06-07' })),
];

function posting(place: Case['place'], overrides: Partial<CheckedPosting> & { range?: CheckedLocation['range'] } = {}): CheckedPosting {
  const eu = place.countryCode !== 'US';
  const location: CheckedLocation = { key: 'here', ...place, range: overrides.range !== undefined ? overrides.range : eu ? EUR_INSIDE : INSIDE, band: eu ? EUR_BAND : BAND };
  return {
    remote: false,
    hiringRegions: [],
    payBasis: 'salary',
    payPeriod: 'year',
    benefitsDescription: 'Medical, dental and vision cover; 401(k) with a 4% match; 20 days of paid leave.',
    asksPayHistory: false,
    headcount: 100,
    outOfBandApproved: false,
    locations: [location],
    ...overrides,
  };
}

const ofRule = (ruleId: string, p: CheckedPosting, rules?: readonly JurisdictionRule[]) =>
  checkPosting(p, { today: TODAY, ...(rules ? { rules } : {}) }).findings.filter((finding) => finding.ruleId === ruleId);

describe('the shipped pay-transparency rules', () => {
  it('has one rule per jurisdiction asked for, each with its law, source and effective date', () => {
    const rules = jurisdictionRules();
    expect(rules.map((rule) => rule.id).sort()).toEqual(CASES.map((c) => c.ruleId).sort());
    for (const rule of rules) {
      expect(rule.law.length, rule.id).toBeGreaterThan(5);
      expect(rule.sourceName.length, rule.id).toBeGreaterThan(5);
      expect(rule.sourceUrl, rule.id).toMatch(/^https:\/\/[a-z0-9.-]+\.[a-z]{2,}\//);
      expect(rule.effectiveDate, rule.id).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    // One rule per EU member state: 27, each its own country.
    const eu = rules.filter((rule) => rule.kind === 'eu');
    expect(eu).toHaveLength(27);
    expect(new Set(eu.map((rule) => rule.country)).size).toBe(27);
  });

  describe.each(CASES)('$ruleId', (c) => {
    it('meets it: a range within the band, benefits described, no pay-history question, at the threshold', () => {
      const findings = ofRule(c.ruleId, posting(c.place, { headcount: c.threshold }));
      expect(findings.length).toBeGreaterThan(1);
      expect(findings.every((finding) => finding.status === 'meets'), JSON.stringify(findings)).toBe(true);
      expect(findings[0]?.requirement).toBe('employerSize');
      expect(findings[0]?.effectiveDate).toBe(c.effective);
      expect(findings[0]?.inForce).toBe(c.effective <= TODAY);
      const requirements = findings.map((finding) => finding.requirement);
      expect(requirements.includes('range')).toBe(c.inPosting);
      // Where the range is asked for: always said, with promotion opportunities and requests where the law names them.
      const where = findings.find((finding) => finding.requirement === 'disclosure')?.message ?? '';
      expect(requirements).toContain('disclosure');
      expect(where.includes('only when an applicant asks for it')).toBe(!c.inPosting);
      expect(where.includes('in promotion and transfer opportunities announced to current employees')).toBe(c.promotion === true);
      expect(where.includes('to an applicant or employee who asks for it')).toBe(c.onRequest === true);
      expect(requirements.includes('benefits')).toBe(c.benefits);
      expect(requirements.includes('hourlyOrSalary')).toBe(c.inPosting && c.hourly);
      expect(requirements).toContain('payHistory');
    });

    it('fails it: a range beyond the band without approval, no benefits, a pay-history question, an hourly role priced by the year', () => {
      const findings = ofRule(c.ruleId, posting(c.place, { range: c.place.countryCode === 'US' ? BELOW : { min: 5_000_000, max: 7_500_000, currency: 'EUR' }, benefitsDescription: ' ', asksPayHistory: true, payBasis: 'hourly', payPeriod: 'year' }));
      const failed = findings.filter((finding) => finding.status === 'fails').map((finding) => finding.requirement);
      const expected = [...(c.inPosting ? ['goodFaith'] : []), ...(c.inPosting && c.benefits ? ['benefits'] : []), ...(c.inPosting && c.hourly ? ['hourlyOrSalary'] : []), 'payHistory'];
      expect(failed).toEqual(expected);
      const check = checkPosting(posting(c.place, { asksPayHistory: true }), { today: TODAY });
      // A rule not yet in force is shown but does not count against the posting.
      if (c.effective > TODAY) expect(ofRule(c.ruleId, posting(c.place, { asksPayHistory: true })).some((f) => f.status === 'fails' && !f.inForce)).toBe(true);
      else expect(check.meetsAll).toBe(false);
    });

    it('does not apply below its size threshold', () => {
      const findings = ofRule(c.ruleId, posting(c.place, { headcount: c.threshold - 1, asksPayHistory: true, range: null }));
      expect(findings).toHaveLength(1);
      expect(findings[0]?.requirement).toBe('employerSize');
      expect(findings[0]?.status).toBe('notApplicable');
      expect(findings[0]?.message).toContain(`${c.threshold} or more employees; this employer has ${c.threshold - 1}`);
    });
  });

  it('names no missing range as a failure, with the reason', () => {
    const findings = ofRule('us-co', posting(us('CO', 'Denver', 'Denver, CO'), { range: null, locations: [{ key: 'here', ...us('CO', 'Denver', 'Denver, CO'), range: null, band: null, noBandReason: 'No live band set' }] }));
    expect(findings.find((finding) => finding.requirement === 'range')).toMatchObject({ status: 'fails', message: 'Colorado asks for the pay range, and Denver, CO has none: No live band set.' });
  });

  it('counts an approved range beyond the band as made in good faith', () => {
    const findings = ofRule('us-co', posting(us('CO', 'Denver', 'Denver, CO'), { range: BELOW, outOfBandApproved: true }));
    expect(findings.find((finding) => finding.requirement === 'goodFaith')?.status).toBe('meets');
  });

  it('applies a state rule to a remote role that could be filled there, not a rule that leaves remote roles out', () => {
    const austin = { key: 'austin', countryCode: 'US', stateCode: 'TX', city: 'Austin', name: 'Austin, TX', range: INSIDE, band: BAND };
    const remote = posting(us('TX', 'Austin', 'Austin, TX'), { remote: true, hiringRegions: [{ countryCode: 'US', stateCode: 'CO' }, { countryCode: 'US', stateCode: 'HI' }], locations: [austin] });
    const findings = checkPosting(remote, { today: TODAY }).findings;
    expect([...new Set(findings.map((finding) => finding.ruleId))]).toEqual(['us-co']);
    expect(findings.every((finding) => finding.locationKey === null)).toBe(true);
    expect(findings[0]?.message).toContain('it covers remote roles that could be filled there');
  });

  it('applies a member state’s Article 5 rule to a remote role that could be filled there, and only that member state’s', () => {
    const dublin = { key: 'dublin', countryCode: 'IE', stateCode: null, city: 'Dublin', name: 'Dublin, IE', range: EUR_INSIDE, band: EUR_BAND };
    const remote = posting(dublin, { remote: true, hiringRegions: [{ countryCode: 'DE', stateCode: null }, { countryCode: 'CH', stateCode: null }], locations: [dublin] });
    const findings = checkPosting(remote, { today: TODAY }).findings;
    // Ireland for the place, Germany for the hiring region; Switzerland is not a member state.
    expect([...new Set(findings.map((finding) => finding.ruleId))]).toEqual(['eu-ie', 'eu-de']);
    expect(findings.find((finding) => finding.ruleId === 'eu-de' && finding.requirement === 'disclosure')?.message).toBe(
      'Germany (EU Pay Transparency Directive) asks for the pay range in the job posting or, at the latest, before the first interview.',
    );
  });

  it('applies both New York State and New York City to a job in the city', () => {
    const findings = checkPosting(posting(us('NY', 'New York City', 'New York City, NY')), { today: TODAY }).findings;
    expect([...new Set(findings.map((finding) => finding.ruleId))]).toEqual(['us-ny', 'us-ny-nyc']);
  });

  it('flags a range wider than a rule’s guidance', () => {
    const base = jurisdictionRules().find((rule) => rule.id === 'us-co');
    if (!base) throw new Error('no Colorado rule');
    const guided: JurisdictionRule = { ...base, id: 'guided', maxSpreadPercent: 60 };
    // $100,000 – $170,000: (170,000 − 100,000) / 100,000 = 70% > 60%; $100,000 – $150,000: 50%.
    const wide = ofRule('guided', posting(us('CO', 'Denver', 'Denver, CO'), { range: { min: 10_000_000, max: 17_000_000, currency: 'USD' }, locations: [{ key: 'here', ...us('CO', 'Denver', 'Denver, CO'), range: { min: 10_000_000, max: 17_000_000, currency: 'USD' }, band: { min: 9_000_000, max: 18_000_000, currency: 'USD' } }] }), [guided]);
    expect(wide.find((finding) => finding.requirement === 'spread')).toMatchObject({ status: 'fails', message: 'The range is 70% wide, more than the 60% Colorado\'s guidance accepts.' });
    const fine = ofRule('guided', posting(us('CO', 'Denver', 'Denver, CO'), { locations: [{ key: 'here', ...us('CO', 'Denver', 'Denver, CO'), range: { min: 10_000_000, max: 15_000_000, currency: 'USD' }, band: { min: 9_000_000, max: 18_000_000, currency: 'USD' } }] }), [guided]);
    expect(fine.find((finding) => finding.requirement === 'spread')?.status).toBe('meets');
  });
});

describe('employer size counted in the jurisdiction', () => {
  // A company of 200: 12 in Minneapolis and 6 in Duluth (18 in Minnesota), 20 in Cleveland and 5 in Columbus (25 in Ohio), 157 in New York.
  const employeesByPlace = [
    { ...us('MN', 'Minneapolis', 'Minneapolis, MN'), count: 12 },
    { ...us('MN', 'Duluth', 'Duluth, MN'), count: 6 },
    { ...us('OH', 'Cleveland', 'Cleveland, OH'), count: 20 },
    { ...us('OH', 'Columbus', 'Columbus, OH'), count: 5 },
    { ...us('NY', 'New York City', 'New York City, NY'), count: 157 },
  ];
  // The cities a recorded location can name (hand-written, as the catalog's metros would give them).
  const locatableCities = [us('OH', 'Cleveland', 'Cleveland, OH'), us('OH', 'Columbus', 'Columbus, OH'), us('NY', 'New York City', 'New York City, NY')];
  const size = (ruleId: string, place: Case['place'], extra: Partial<CheckedPosting> = {}) => ofRule(ruleId, posting(place, { headcount: 200, employeesByPlace, locatableCities, ...extra })).find((finding) => finding.requirement === 'employerSize');

  it('counts Minnesota’s employees for its 30-employee threshold: 12 + 6 = 18, below it though the company has 200', () => {
    expect(size('us-mn', us('MN', 'Minneapolis', 'Minneapolis, MN'))).toMatchObject({
      status: 'notApplicable',
      message: 'Minnesota applies to employers with 30 or more employees; this employer has 18 in Minnesota (active employees counted by their recorded locations, of 200 company-wide).',
    });
  });

  it('counts only the city’s employees for Cleveland’s 15: 20 there (not Columbus’s 5), so it applies', () => {
    expect(size('us-oh-cleveland', us('OH', 'Cleveland', 'Cleveland, OH'))).toMatchObject({ status: 'meets', message: expect.stringContaining('this employer has 20 in Cleveland (active employees counted by their recorded locations, of 200 company-wide)') });
  });

  it('keeps the company-wide count for a city no recorded location can name (Toledo), and says so', () => {
    expect(size('us-oh-toledo', us('OH', 'Toledo', 'Toledo, OH'))).toMatchObject({ status: 'meets', message: 'Toledo applies to employers with 15 or more employees; this employer has 200 (company-wide: no recorded location names Toledo, so its employees there cannot be counted).' });
  });

  it('keeps the company-wide count for a rule that counts every employee (Colorado: 200, with none in Colorado)', () => {
    expect(size('us-co', us('CO', 'Denver', 'Denver, CO'))).toMatchObject({ status: 'meets', message: 'Colorado applies to employers with 1 or more employees; this employer has 200.' });
  });

  it('uses the posting’s stated count, and says so', () => {
    expect(size('us-mn', us('MN', 'Minneapolis', 'Minneapolis, MN'), { headcount: 40, headcountStated: true })).toMatchObject({
      status: 'meets',
      message: 'Minnesota applies to employers with 30 or more employees; this employer has 40 (the count the posting states; Minnesota counts employees there).',
    });
  });

  it('falls back to the company-wide count when no employee’s location is recorded, and says so', () => {
    expect(size('us-mn', us('MN', 'Minneapolis', 'Minneapolis, MN'), { employeesByPlace: [] })).toMatchObject({ status: 'meets', message: expect.stringContaining("this employer has 200 (company-wide: no employee's location is recorded; Minnesota counts employees there)") });
  });
});

describe('a posting drawn from an older band set', () => {
  const denver = us('CO', 'Denver', 'Denver, CO');
  const at = (liveBand: CheckedLocation['liveBand']) => {
    const base = posting(denver, { headcount: 50 });
    return checkPosting({ ...base, liveSetName: 'Bands 2027', locations: base.locations.map((location) => ({ ...location, liveBand })) }, { today: TODAY });
  };

  it('says per place that the live band no longer holds the range, and what the live band is', () => {
    // Posted $110,000 – $130,000; the live band moved to $115,000 – $150,000: $110,000 is below its minimum.
    const check = at({ min: 11_500_000, max: 15_000_000, currency: 'USD' });
    expect(check.findings.filter((finding) => finding.requirement === 'liveBand')).toEqual([
      expect.objectContaining({ ruleId: 'live-bands', jurisdiction: 'Denver, CO', locationKey: 'here', status: 'fails', message: 'The live band set “Bands 2027” no longer holds the range $110,000 – $130,000: the live band is $115,000 – $150,000. Propose the ranges again.' }),
    ]);
    expect(check.meetsAll).toBe(false);
  });

  it('says the live band still holds a range inside it, and when the live set has no band', () => {
    const held = at({ min: 10_000_000, max: 13_000_000, currency: 'USD' });
    expect(held.findings.find((finding) => finding.requirement === 'liveBand')).toMatchObject({ status: 'meets', message: 'The live band set “Bands 2027” still holds the range $110,000 – $130,000 (live band $100,000 – $130,000).' });
    expect(held.meetsAll).toBe(true);
    expect(at(null).findings.find((finding) => finding.requirement === 'liveBand')).toMatchObject({ status: 'fails', message: expect.stringContaining('has no band for Denver, CO') });
  });
});
