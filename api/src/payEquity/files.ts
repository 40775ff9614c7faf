import { Readable } from 'node:stream';
import type { CompanyScope } from '../access/caller.js';
import type { AmountRow, DocumentBlock } from '../documents/content.js';
import { documentPdf } from '../documents/pdf.js';
import { companyBranding } from '../documents/service.js';
import { type CsvRow, csvFile } from '../downloads/csv.js';
import { type XlsxCell, xlsxContent } from '../downloads/xlsx.js';
import { RawResponse, type ServiceContext } from '../kernel/operations.js';
import { formatMajor } from '../money/format.js';
import type { components } from '../contract-types.js';
import type { GapFigures } from './engine.js';
import type { PayEquityReport } from './report.js';
import type { PresentedEvaluation } from './evaluation.js';

export type FileFormat = 'csv' | 'xlsx' | 'pdf';

type AdjustedGap = components['schemas']['PayEquityAdjustedGap'];

const HEADER = ['Indicator', 'Basis', 'Women', 'Men', 'Women mean', 'Men mean', 'Women median', 'Men median', 'Mean gap %', 'Median gap %', 'Note'];

type Row = (string | number | null)[];

const gapRow = (indicator: string, basis: string, figures: GapFigures, note = ''): Row => [
  indicator, basis, figures.female.count, figures.male.count, figures.female.mean, figures.male.mean, figures.female.median, figures.male.median, figures.meanGap, figures.medianGap, note,
];

/** The report as rows: every indicator, then every category, then the UK figures and the method. */
export function reportRows(report: PayEquityReport): Row[] {
  const rows: Row[] = [];
  rows.push(['Employer', '', null, null, null, null, null, null, null, null, report.legalEntity ?? 'Every legal entity together (group view)']);
  rows.push(['Workers', '', report.counts.female, report.counts.male, null, null, null, null, null, null, `Another gender: ${report.counts.other}; none recorded: ${report.counts.unknown}`]);
  rows.push(gapRow('(a)(c) Pay gap', 'annual', report.annual.total), gapRow('(a)(c) Pay gap', 'hourly', report.hourly.total));
  rows.push(gapRow('Ordinary basic wage gap', 'annual', report.annual.base), gapRow('Ordinary basic wage gap', 'hourly', report.hourly.base));
  rows.push(gapRow('(b)(d) Complementary or variable components gap', 'annual', report.variable.annual, 'Among those receiving any'), gapRow('(b)(d) Complementary or variable components gap', 'hourly', report.variable.hourly, 'Among those receiving any'));
  rows.push(['(e) Receiving complementary or variable components %', '', report.receivingVariable.female, report.receivingVariable.male, null, null, null, null, null, null, 'Percent of women, of men']);
  for (const band of report.quartiles) rows.push([`(f) Quartile ${band.quartile}`, 'hourly', band.female, band.male, null, null, null, null, null, null, `Women ${band.femaleShare} %, men ${band.maleShare} %`]);
  for (const category of report.categories) {
    if (category.suppressed || !category.annual || !category.hourly) {
      rows.push([`(g) ${category.categoryName}`, '', null, null, null, null, null, null, null, null, category.reason === 'complementary' ? 'Withheld so a small group cannot be worked out' : `Withheld: fewer than ${report.minimumGroup} women or men`]);
      continue;
    }
    const flag = !category.flagged
      ? ''
      : category.unexplained
        ? `Gap of 5 % or more, not justified: joint pay assessment${category.assessment ? ` (${category.assessment.status}, due ${category.assessment.dueDate})` : ''}`
        : `Gap of 5 % or more, explained: assessment ${category.assessment?.status ?? ''}`;
    rows.push(gapRow(`(g) ${category.categoryName} — total`, 'annual', category.annual.total, flag), gapRow(`(g) ${category.categoryName} — total`, 'hourly', category.hourly.total, flag));
    rows.push(gapRow(`(g) ${category.categoryName} — ordinary basic wage`, 'annual', category.annual.base), gapRow(`(g) ${category.categoryName} — ordinary basic wage`, 'hourly', category.hourly.base));
    rows.push(gapRow(`(g) ${category.categoryName} — complementary or variable`, 'annual', category.annual.variable), gapRow(`(g) ${category.categoryName} — complementary or variable`, 'hourly', category.hourly.variable));
  }
  rows.push(gapRow(`UK hourly pay gap (snapshot ${report.uk.snapshotDate})`, 'hourly', report.uk.hourly, 'Full-pay relevant employees'));
  rows.push(gapRow('UK bonus gap', '12 months', report.uk.bonus, 'Among those receiving a bonus'));
  rows.push(['UK receiving a bonus %', '', report.uk.receivingBonus.female, report.uk.receivingBonus.male, null, null, null, null, null, null, 'Percent of relevant women, of men']);
  for (const band of report.uk.quartiles) rows.push([`UK quartile ${band.quartile}`, 'hourly', band.female, band.male, null, null, null, null, null, null, `Women ${band.femaleShare} %, men ${band.maleShare} %`]);
  for (const sentence of report.method) rows.push(['Method', '', null, null, null, null, null, null, null, null, sentence]);
  return rows;
}

async function* each<T>(rows: readonly T[]): AsyncIterable<T> {
  for (const row of rows) yield row;
}

async function buffered(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks);
}

/** Rows as a CSV or XLSX file answer. */
export async function tableFile(options: { header: readonly string[]; rows: readonly Row[]; format: 'csv' | 'xlsx'; stem: string; sheet: string }): Promise<RawResponse> {
  if (options.format === 'csv') {
    const bytes = await buffered(csvFile(options.header, options.rows as readonly CsvRow[]));
    return new RawResponse(Readable.from([bytes]), 'text/csv; charset=utf-8', `${options.stem}.csv`, bytes.length);
  }
  const written = xlsxContent(each<readonly XlsxCell[]>(options.rows), options.header, options.sheet);
  const [bytes] = await Promise.all([buffered(written.content), written.done]);
  return new RawResponse(Readable.from([bytes]), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', `${options.stem}.xlsx`, bytes.length);
}

const percent = (value: number | null): string => (value === null ? 'withheld' : `${value.toFixed(2)} %`);

function gapTable(figures: GapFigures, currency: string, digits: 'whole' | 'minor'): AmountRow[] {
  const money = (value: number | null) => (value === null ? 'withheld' : formatMajor(value, currency, digits));
  return [
    { label: `Women (${figures.female.count}): mean · median`, amount: `${money(figures.female.mean)} · ${money(figures.female.median)}` },
    { label: `Men (${figures.male.count}): mean · median`, amount: `${money(figures.male.mean)} · ${money(figures.male.median)}` },
    { label: 'Mean gap · median gap', amount: `${percent(figures.meanGap)} · ${percent(figures.medianGap)}`, emphasis: true },
  ];
}

/** The report as a PDF through the documents module: the indicators, the categories, the UK figures and the method. */
export async function reportPdf(ctx: Pick<ServiceContext, 'db'>, scope: CompanyScope, report: PayEquityReport): Promise<RawResponse> {
  const { db } = ctx;
  const c = report.currency;
  const blocks: DocumentBlock[] = [
    { kind: 'paragraph', lines: [report.legalEntity ? `Employer: ${report.legalEntity}.` : 'Every legal entity of the company together (group view).'] },
    { kind: 'paragraph', lines: [`Reference year ${report.year}, pay as of ${report.asOf}, in ${c}. ${report.workers} workers: ${report.counts.female} women, ${report.counts.male} men, ${report.counts.other} of another gender, ${report.counts.unknown} with none recorded.`] },
    { kind: 'heading', text: '(a) and (c) Pay gap, annual' },
    { kind: 'table', rows: gapTable(report.annual.total, c, 'whole') },
    { kind: 'heading', text: '(a) and (c) Pay gap, hourly' },
    { kind: 'table', rows: gapTable(report.hourly.total, c, 'minor') },
    { kind: 'heading', text: '(b) and (d) Complementary or variable components, annual' },
    { kind: 'table', rows: gapTable(report.variable.annual, c, 'whole') },
    { kind: 'heading', text: '(e) Receiving complementary or variable components' },
    { kind: 'table', rows: [{ label: 'Women', amount: percent(report.receivingVariable.female) }, { label: 'Men', amount: percent(report.receivingVariable.male) }] },
    { kind: 'heading', text: '(f) Quartile pay bands (hourly)' },
    { kind: 'table', rows: report.quartiles.map((band) => ({ label: `Quartile ${band.quartile} (${band.female + band.male} people)`, amount: `women ${band.femaleShare} % · men ${band.maleShare} %` })) },
    { kind: 'heading', text: '(g) Gap per category of workers (mean, annual)' },
    {
      kind: 'table',
      rows: report.categories.map((category) => ({
        label: category.categoryName,
        amount: category.suppressed || !category.annual
          ? 'withheld (small group)'
          : `total ${percent(category.annual.total.meanGap)} · basic ${percent(category.annual.base.meanGap)} · variable ${percent(category.annual.variable.meanGap)}${category.flagged ? (category.unexplained ? ' · flagged, not justified' : ' · flagged, justified') : ''}`,
        emphasis: category.unexplained,
      })),
    },
    { kind: 'heading', text: `UK gender pay gap (snapshot ${report.uk.snapshotDate})` },
    { kind: 'table', rows: [...gapTable(report.uk.hourly, c, 'minor'), { label: 'Bonus: mean gap · median gap', amount: `${percent(report.uk.bonus.meanGap)} · ${percent(report.uk.bonus.medianGap)}` }, { label: 'Receiving a bonus: women · men', amount: `${percent(report.uk.receivingBonus.female)} · ${percent(report.uk.receivingBonus.male)}` }] },
    { kind: 'heading', text: 'Method' },
    { kind: 'paragraph', lines: report.method },
  ];
  const bytes = await documentPdf({ title: `Pay gap report ${report.year}`, branding: await companyBranding(db, scope), blocks });
  return new RawResponse(Readable.from([bytes]), 'application/pdf', `pay-gap-report-${report.year}.pdf`, bytes.length);
}

export const REPORT_HEADER = HEADER;

const EVALUATION_HEADER = ['Job', 'Job id', 'Employees', 'Skills', 'Effort', 'Responsibility', 'Working conditions', 'Points', 'Category', 'Evidence'];

export function evaluationRows(evaluation: PresentedEvaluation): Row[] {
  const rows: Row[] = evaluation.jobs.map((job) => [
    job.name, job.jobId, job.employees, job.scores?.skills ?? null, job.scores?.effort ?? null, job.scores?.responsibility ?? null, job.scores?.working_conditions ?? null, job.points, job.categoryId, job.evidence,
  ]);
  for (const factor of evaluation.factors) rows.push([`Factor: ${factor.name}`, factor.key, null, null, null, null, null, factor.weight, `${factor.levels} levels`, factor.description]);
  return rows;
}

export async function evaluationFile(ctx: Pick<ServiceContext, 'db'>, scope: CompanyScope, evaluation: PresentedEvaluation, format: FileFormat): Promise<RawResponse> {
  const { db } = ctx;
  if (format !== 'pdf') return tableFile({ header: EVALUATION_HEADER, rows: evaluationRows(evaluation), format, stem: 'job-evaluation', sheet: 'Job evaluation' });
  const blocks: DocumentBlock[] = [
    { kind: 'paragraph', lines: ['Categories of workers (EU Directive 2023/970, Art. 4): jobs evaluated by gender-neutral criteria — skills, effort, responsibility and working conditions. Points = Σ weight × level ÷ levels × 10; jobs with equal points do work of equal value and form one category.'] },
    { kind: 'heading', text: 'Factors' },
    { kind: 'table', rows: evaluation.factors.map((factor) => ({ label: `${factor.name} (${factor.levels} levels) — ${factor.description}`, amount: `${factor.weight} %` })) },
    { kind: 'heading', text: 'Jobs' },
    {
      kind: 'table',
      rows: evaluation.jobs.map((job) => ({
        label: `${job.name}${job.evidence ? ` — ${job.evidence}` : ''}`,
        amount: job.scores ? `${job.points} points (S${job.scores.skills} E${job.scores.effort} R${job.scores.responsibility} W${job.scores.working_conditions})` : 'not evaluated',
      })),
    },
  ];
  const bytes = await documentPdf({ title: 'Job evaluation', branding: await companyBranding(db, scope), blocks });
  return new RawResponse(Readable.from([bytes]), 'application/pdf', 'job-evaluation.pdf', bytes.length);
}

export const ADJUSTED_HEADER = ['Figure', 'Value', 'Lower 95 %', 'Upper 95 %', 'Sex', 'Pay', 'Predicted', 'Residual', 'Raise', 'Note'];

/**
 * The adjusted gap as rows: the employer, the fit, the gap with its interval, the decomposition,
 * the cost to close, the method, then each person (when the caller sees everyone's pay).
 */
export function adjustedRows(gap: AdjustedGap | null, options: { year: number; legalEntity: string | null; controls: string; threshold: number }): Row[] {
  const rows: Row[] = [['Employer', options.legalEntity ?? 'Every legal entity together (group view)', null, null, null, null, null, null, null, `Reference year ${options.year}`]];
  if (!gap) {
    rows.push(['Adjusted gap', null, null, null, null, null, null, null, null, 'Not computed: the year has not both women and men with pay.']);
    return rows;
  }
  rows.push(['People (women and men)', gap.n, null, null, null, null, null, null, null, `Controls: ${gap.controls.join(', ')}; ${gap.columns} columns, rank ${gap.rank}`]);
  rows.push(['R²', gap.rSquared, null, null, null, null, null, null, null, '']);
  rows.push(['Woman coefficient (log points)', gap.coefficient, gap.interval[0] ?? null, gap.interval[1] ?? null, null, null, null, null, null, `Standard error ${gap.standardError}`]);
  rows.push(['Adjusted gap %', gap.adjustedGap, gap.adjustedGapInterval[0] ?? null, gap.adjustedGapInterval[1] ?? null, null, null, null, null, null, '(1 − e^b) × 100: between a woman and a man with the same controls']);
  rows.push(['Raw gap %', gap.decomposition.rawGap, null, null, null, null, null, null, null, '']);
  rows.push(['Raw gap (log points)', gap.decomposition.raw, null, null, null, null, null, null, null, 'mean ln(pay) of men − of women']);
  rows.push(['Explained (log points)', gap.decomposition.explained, null, null, null, null, null, null, null, gap.decomposition.explainedShare === null ? '' : `${gap.decomposition.explainedShare} % of the raw gap`]);
  rows.push(['Unexplained (log points)', gap.decomposition.unexplained, null, null, null, null, null, null, null, 'Blinder–Oaxaca, pooled coefficients']);
  rows.push(['Cost to close', gap.costToClose.total, null, null, null, null, null, null, null, `${gap.costToClose.people} women raised to their predicted pay (threshold ${options.threshold} %), annual ${gap.currency}`]);
  rows.push(['Method', null, null, null, null, null, null, null, null, 'Ordinary least squares of ln(annual pay) on an intercept, a woman indicator and the controls; categorical controls as indicators against their most frequent value; 95 % interval b ± 1.96 × se(b).']);
  for (const person of gap.people) rows.push([person.name, null, null, null, person.sex === 'female' ? 'woman' : 'man', person.pay, person.predicted, person.residual, person.raise, '']);
  return rows;
}
