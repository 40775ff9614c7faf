import { describe, expect, it } from 'vitest';
import { type PayWorker, type Sex, articleNineReport, directiveDuty, gap, median, quartiles, suppression, totalAnnual, totalHourly, ukReport } from './engine.js';


const worker = (employeeId: string, sex: Sex, categoryId: string, base: number, variable: number): PayWorker => ({ employeeId, sex, categoryId, base, variable, annualHours: 2000 });

/*
 * Eleven workers in three categories (A, B, C), full-time hours 2,000 a year:
 *   A: F1 50,000 + 0      F2 60,000 + 5,000   M1 60,000 + 5,000   M2 70,000 + 10,000
 *   B: F3 40,000 + 2,000  M3 40,000 + 0       M4 50,000 + 6,000   U1 45,000 (no gender recorded)   O1 55,000 (another gender)
 *   C: F4 80,000 + 0      M5 90,000 + 10,000
 */
const WORKERS: PayWorker[] = [
  worker('F1', 'female', 'A', 50_000, 0),
  worker('F2', 'female', 'A', 60_000, 5_000),
  worker('M1', 'male', 'A', 60_000, 5_000),
  worker('M2', 'male', 'A', 70_000, 10_000),
  worker('F3', 'female', 'B', 40_000, 2_000),
  worker('M3', 'male', 'B', 40_000, 0),
  worker('M4', 'male', 'B', 50_000, 6_000),
  worker('U1', 'unknown', 'B', 45_000, 0),
  worker('O1', 'other', 'B', 55_000, 0),
  worker('F4', 'female', 'C', 80_000, 0),
  worker('M5', 'male', 'C', 90_000, 10_000),
];

describe('the pay-gap primitives', () => {
  it('takes the mean of the two middle values for an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5); // 1 2 | 3 4 → (2 + 3) / 2
    expect(median([5, 1, 3])).toBe(3);
    expect(median([])).toBeNull();
  });
  it('states the gap as a percentage of men’s pay, none when men’s is 0 or missing', () => {
    expect(gap(100, 93)).toBe(7); // (100 − 93) / 100
    expect(gap(80, 100)).toBe(-25); // women paid more: a negative gap
    expect(gap(0, 10)).toBeNull();
    expect(gap(null, 10)).toBeNull();
  });
});

describe('the Article 9 report on eleven workers (minimum group 2)', () => {
  const report = articleNineReport(WORKERS, { minimumGroup: 2 });

  it('counts women, men, another gender and no recorded gender apart', () => {
    expect(report.counts).toEqual({ female: 4, male: 5, other: 1, unknown: 1 });
  });

  it('(a) mean and (c) median gap of total pay, annual and hourly', () => {
    // Women's totals: 50,000  65,000  42,000  80,000 → mean 237,000 / 4 = 59,250; sorted 42,000 50,000 | 65,000 80,000 → median 57,500.
    // Men's: 65,000  80,000  40,000  56,000  100,000 → mean 341,000 / 5 = 68,200; sorted → median 65,000.
    expect(report.annual.total.female).toEqual({ count: 4, mean: 59_250, median: 57_500 });
    expect(report.annual.total.male).toEqual({ count: 5, mean: 68_200, median: 65_000 });
    expect(report.annual.total.meanGap).toBe(13.12); // (68,200 − 59,250) / 68,200 = 8,950 / 68,200 = 13.123 %
    expect(report.annual.total.medianGap).toBe(11.54); // (65,000 − 57,500) / 65,000 = 11.538 %
    // Hourly: every figure ÷ 2,000 hours — 29.625 and 34.10 an hour, the same gaps.
    expect(report.hourly.total.female.mean).toBeCloseTo(29.625, 10);
    expect(report.hourly.total.male.mean).toBeCloseTo(34.1, 10);
    expect(report.hourly.total.meanGap).toBe(13.12);
    expect(report.hourly.total.medianGap).toBe(11.54);
  });

  it('the gap of ordinary basic wage', () => {
    // Women's base 50,000 60,000 40,000 80,000 → mean 57,500, median (50,000 + 60,000) / 2 = 55,000.
    // Men's base 60,000 70,000 40,000 50,000 90,000 → mean 62,000, median 60,000.
    expect(report.annual.base.meanGap).toBe(7.26); // 4,500 / 62,000 = 7.258 %
    expect(report.annual.base.medianGap).toBe(8.33); // 5,000 / 60,000 = 8.333 %
  });

  it('(b) mean and (d) median gap of complementary or variable components, among those who receive any', () => {
    // Women receiving: F2 5,000, F3 2,000 → mean and median 3,500. Men: M1 5,000, M2 10,000, M4 6,000, M5 10,000 → mean 7,750, median (6,000 + 10,000) / 2 = 8,000.
    expect(report.variable.annual.female).toEqual({ count: 2, mean: 3_500, median: 3_500 });
    expect(report.variable.annual.male).toEqual({ count: 4, mean: 7_750, median: 8_000 });
    expect(report.variable.annual.meanGap).toBe(54.84); // 4,250 / 7,750 = 54.839 %
    expect(report.variable.annual.medianGap).toBe(56.25); // 4,500 / 8,000
  });

  it('(e) the share of women and of men receiving variable components', () => {
    expect(report.receivingVariable).toEqual({ female: 50, male: 80 }); // 2 of 4 women, 4 of 5 men
  });

  it('(f) quartile bands of the nine women and men, lower bands taking the remainder', () => {
    // Ranked by hourly total: M3 40k | F3 42k | F1 50k | M4 56k | F2 65k = M1 65k | F4 80k = M2 80k | M5 100k.
    // 9 = 3 + 2 + 2 + 2. Ties put the woman first (both keys ½, women before men at equal keys).
    // Q1 M3 F3 F1 · Q2 M4 F2 · Q3 M1 F4 · Q4 M2 M5.
    expect(report.quartiles.map((band) => [band.female, band.male])).toEqual([[2, 1], [1, 1], [1, 1], [0, 2]]);
    expect(report.quartiles[0]!.femaleShare).toBe(66.67);
    expect(report.quartiles[3]!.maleShare).toBe(100);
    expect(report.quartiles[3]!.lowest).toBe(40); // M2: 80,000 / 2,000 hours
  });

  it('(g) per category: A published, B (one woman) and C (one woman, one man) below the minimum', () => {
    const [a, b, c] = report.categories;
    expect(a!.categoryId).toBe('A');
    expect(a!.counts).toEqual({ female: 2, male: 2, other: 0, unknown: 0 });
    // Totals: women 50,000 65,000 → 57,500; men 65,000 80,000 → 72,500; gap 15,000 / 72,500 = 20.69 %.
    expect(a!.annual!.total.meanGap).toBe(20.69);
    // Base: women 55,000, men 65,000 → 10,000 / 65,000 = 15.38 %.
    expect(a!.annual!.base.meanGap).toBe(15.38);
    // Variable over every member, zeros included: women (0 + 5,000) / 2 = 2,500, men 7,500 → 5,000 / 7,500 = 66.67 %.
    expect(a!.annual!.variable.meanGap).toBe(66.67);
    expect(a!.hourly!.base.meanGap).toBe(15.38);
    expect(b).toMatchObject({ categoryId: 'B', suppressed: true, reason: 'below_minimum', counts: null, annual: null });
    expect(c).toMatchObject({ categoryId: 'C', suppressed: true, reason: 'below_minimum', annual: null });
  });

  it('withholds the whole report’s figures when the company has fewer women or men than the minimum', () => {
    const small = articleNineReport(WORKERS, { minimumGroup: 5 }); // 4 women < 5
    expect(small.annual.total.meanGap).toBeNull();
    expect(small.annual.total.female).toEqual({ count: 4, mean: null, median: null });
    expect(small.receivingVariable).toEqual({ female: null, male: null });
    expect(small.quartiles).toEqual([]);
    expect(small.categories.every((category) => category.suppressed)).toBe(true);
  });

  it('the annual total of a worker is base plus variable', () => {
    expect(totalAnnual(WORKERS[1]!)).toBe(65_000);
  });
});

describe('quartiles spread people paid the same evenly by sex', () => {
  it('cuts a tie of two women and two men across a band boundary one of each side', () => {
    // Pay: m 10, f 20, f 30, f 30, m 30, m 30, f 40, m 50. In the tie at 30 the women sort at ¼ and ¾, the men at ¼ and ¾:
    // f m f m. Order: m10 f20 | f30 m30 | f30 m30 | f40 m50 — every band one woman, one man
    // (sorting the tie women first would give Q2 f f and Q3 m m).
    const people: PayWorker[] = [
      worker('a', 'male', 'X', 10, 0), worker('b', 'female', 'X', 20, 0), worker('c', 'female', 'X', 30, 0), worker('d', 'female', 'X', 30, 0),
      worker('e', 'male', 'X', 30, 0), worker('f', 'male', 'X', 30, 0), worker('g', 'female', 'X', 40, 0), worker('h', 'male', 'X', 50, 0),
    ];
    expect(quartiles(people, totalAnnual).map((band) => [band.female, band.male])).toEqual([[1, 1], [1, 1], [1, 1], [1, 1]]);
  });
});

describe('small-group suppression with no differencing (minimum 5)', () => {
  const counts = (female: number, male: number) => ({ female, male, other: 0, unknown: 0 });
  it('withholds a small category and the smallest other so the company total cannot give it away', () => {
    // Y has 3 women: withheld. Withheld so far: 3 women, 0 < 3 < 5 → the company's figures minus the others would expose them.
    // The smallest published category by head count is Z (18; X 20, W 40): withheld too. Then 15 women and 14 men: safe.
    const withheld = suppression([{ categoryId: 'X', counts: counts(10, 10) }, { categoryId: 'Y', counts: counts(3, 8) }, { categoryId: 'Z', counts: counts(12, 6) }, { categoryId: 'W', counts: counts(20, 20) }], 5);
    expect([...withheld.entries()].sort()).toEqual([['Y', 'below_minimum'], ['Z', 'complementary']]);
  });
  it('needs nothing more when the withheld categories together reach the minimum', () => {
    // Y 3 women + V 2 women = 5 women withheld together, 17 men: no one exposed.
    const withheld = suppression([{ categoryId: 'Y', counts: counts(3, 8) }, { categoryId: 'V', counts: counts(2, 9) }, { categoryId: 'W', counts: counts(20, 20) }], 5);
    expect([...withheld.entries()].sort()).toEqual([['V', 'below_minimum'], ['Y', 'below_minimum']]);
  });
});

describe('the UK report from the same engine', () => {
  it('hourly gap of full-pay relevant employees, bonus gaps and quartiles', () => {
    const report = ukReport(
      [
        { employeeId: 'F1', sex: 'female', hourlyPay: 20, bonus: 0, fullPay: true },
        { employeeId: 'F2', sex: 'female', hourlyPay: 30, bonus: 1_000, fullPay: true },
        { employeeId: 'F3', sex: 'female', hourlyPay: 25, bonus: 500, fullPay: false }, // on leave: bonus counts, hourly does not
        { employeeId: 'M1', sex: 'male', hourlyPay: 30, bonus: 2_000, fullPay: true },
        { employeeId: 'M2', sex: 'male', hourlyPay: 40, bonus: 0, fullPay: true },
        { employeeId: 'M3', sex: 'male', hourlyPay: 35, bonus: 3_000, fullPay: true },
        { employeeId: 'U1', sex: 'unknown', hourlyPay: 50, bonus: 0, fullPay: true },
      ],
      { minimumGroup: 2 },
    );
    expect(report.counts).toEqual({ female: 3, male: 3, other: 0, unknown: 1 });
    expect(report.fullPayCounts).toEqual({ female: 2, male: 3, other: 0, unknown: 1 });
    // Full-pay women 20, 30 → mean and median 25; men 30, 40, 35 → mean 35, median 35: (35 − 25) / 35 = 28.57 %.
    expect(report.hourly.meanGap).toBe(28.57);
    expect(report.hourly.medianGap).toBe(28.57);
    // Bonus receivers: women 1,000 and 500 → 750; men 2,000 and 3,000 → 2,500: (2,500 − 750) / 2,500 = 70 %.
    expect(report.bonus.meanGap).toBe(70);
    expect(report.bonus.medianGap).toBe(70);
    expect(report.receivingBonus).toEqual({ female: 66.67, male: 66.67 }); // 2 of 3 each
    // Full-pay women and men by hourly pay: F1 20, F2 30 = M1 30, M3 35, M2 40 → 5 = 2 + 1 + 1 + 1: F1 F2 | M1 | M3 | M2.
    expect(report.quartiles.map((band) => [band.female, band.male])).toEqual([[2, 0], [0, 1], [0, 1], [0, 1]]);
  });
});

describe('part-time and contractual hours', () => {
  it('pays the hour from the contractual hours: the full-time rate × fte ÷ hours a year', () => {
    // A half-time worker on a 52,000 full-time rate works 1,040 hours for 26,000: 25 an hour, as a full-timer on 52,000 over 2,080.
    const halfTime: PayWorker = { employeeId: 'P1', sex: 'female', categoryId: 'A', base: 52_000, variable: 0, annualHours: 1_040, fte: 0.5 };
    const fullTime: PayWorker = { employeeId: 'P2', sex: 'male', categoryId: 'A', base: 52_000, variable: 0, annualHours: 2_080 };
    expect(totalHourly(halfTime)).toBe(25); // 52,000 × 0.5 / 1,040
    expect(totalHourly(fullTime)).toBe(25); // 52,000 / 2,080
    // 30 contractual hours at 0.8 FTE (a 37.5-hour full-time week): 62,400 × 0.8 = 49,920 ÷ 1,560 = 32.
    expect(totalHourly({ ...halfTime, base: 62_400, fte: 0.8, annualHours: 30 * 52 })).toBe(32);
    expect(totalAnnual(halfTime)).toBe(52_000); // annual figures compare full-time rates
  });
});

describe('the Directive’s thresholds, judged per legal entity', () => {
  it('250 or more every year, 150–249 every three years, 100–149 every three years from the 2030 reference year', () => {
    expect(directiveDuty(250, 2026)).toBe('yearly');
    expect(directiveDuty(249, 2026)).toBe('every_three_years');
    expect(directiveDuty(150, 2026)).toBe('every_three_years');
    expect(directiveDuty(149, 2026)).toBe('not_required');
    expect(directiveDuty(100, 2030)).toBe('every_three_years');
    expect(directiveDuty(99, 2030)).toBe('not_required');
  });
});
