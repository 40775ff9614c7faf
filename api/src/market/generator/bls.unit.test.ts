import { describe, expect, it } from 'vitest';
import { JOB_FAMILIES, findJobFamily } from '../../reference/catalog/index.js';
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

  it('takes a single-occupation family’s published percentiles from BLS as they are', () => {
    const target = familyWageTarget(findJobFamily('security_engineering')!, occupations);
    // Information security analysts (15-1212) in the May 2023 national file.
    expect(target.p10).toBeCloseTo(69_210, 0);
    expect(target.p25).toBeCloseTo(90_050, 0);
    expect(target.median).toBeCloseTo(120_360, 0);
    expect(target.p75).toBeCloseTo(153_550, 0);
    expect(target.p90).toBeCloseTo(182_370, 0);
  });

  it('reads a top-coded p90 as at least the top code', () => {
    // Lawyers' p90 is printed '#' (239,200 or more); the log-normal through their quartiles says more.
    const lawyers = occupations.get('23-1011')!;
    expect(lawyers.p90).toEqual({ value: 239_200, censored: true });
    const legal = familyWageTarget(findJobFamily('legal')!, occupations);
    // 70% lawyers, 30% paralegals (p25 48,180, p75 77,600): a wide family, unlike one of its parts.
    expect(legal.p25).toBeGreaterThan(48_180);
    expect(legal.p25).toBeLessThan(98_030);
    expect(legal.p75).toBeGreaterThan(77_600);
    expect(legal.p75).toBeLessThan(217_360);
    expect(legal.p90).toBeGreaterThan(legal.p75);
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
