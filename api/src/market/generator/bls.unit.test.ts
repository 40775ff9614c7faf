import { describe, expect, it } from 'vitest';
import { JOB_FAMILIES, findJobFamily } from '../catalog/index.js';
import { BLS_TOP_CODE, familyWageTarget, normalCdf, parseBlsWage, readBlsOccupations } from './bls.js';

describe('BLS wage file', () => {
  const occupations = readBlsOccupations();

  it('parses thousands separators, missing and top-coded cells', () => {
    expect(parseBlsWage('132,270')).toEqual({ value: 132_270, censored: false });
    expect(parseBlsWage('58.40')).toEqual({ value: 58.4, censored: false });
    expect(parseBlsWage('*')).toBeNull();
    expect(parseBlsWage('')).toBeNull();
    expect(parseBlsWage('#')).toEqual({ value: BLS_TOP_CODE, censored: true });
  });

  it('reads detailed national occupations with annual wages', () => {
    const developers = occupations.get('15-1252');
    expect(developers?.title).toBe('Software Developers');
    expect(developers?.median).toEqual({ value: 132_270, censored: false });
    expect(developers?.employment).toBe(1_656_880);
    // Sales managers' 90th percentile is top-coded.
    expect(occupations.get('11-2022')?.p90).toEqual({ value: BLS_TOP_CODE, censored: true });
    // Legislators have no hourly wage; the annual one is used.
    expect(occupations.get('11-1031')?.median?.value).toBe(47_290);
  });

  it('has every occupation the job families are calibrated on', () => {
    for (const family of JOB_FAMILIES) {
      expect(family.socCodes.reduce((sum, s) => sum + s.share, 0)).toBeCloseTo(1, 9);
      for (const { code } of family.socCodes) expect(occupations.get(code)?.median, `${family.id} ${code}`).toBeTruthy();
    }
  });

  it('takes a single-occupation family’s median and interquartile ratio from BLS', () => {
    const target = familyWageTarget(findJobFamily('security_engineering')!, occupations);
    expect(target.median).toBeCloseTo(120_360, 0);
    // A log-normal through the median: the quartiles' ratio is BLS's, their placement symmetric in logs.
    expect(target.p75 / target.p25).toBeCloseTo(153_550 / 90_050, 6);
  });

  it('mixes several occupations between their medians', () => {
    const target = familyWageTarget(findJobFamily('software_engineering')!, occupations);
    expect(target.median).toBeGreaterThan(132_270);
    expect(target.median).toBeLessThan(169_510);
  });

  it('has a normal CDF accurate to 1e-7', () => {
    expect(Math.abs(normalCdf(0) - 0.5)).toBeLessThan(1e-7);
    expect(Math.abs(normalCdf(0.6744897502) - 0.75)).toBeLessThan(1e-7);
    expect(Math.abs(normalCdf(-1.959963985) - 0.025)).toBeLessThan(1e-7);
  });
});
