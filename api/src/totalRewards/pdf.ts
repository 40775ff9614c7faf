import { Readable } from 'node:stream';
import type { components } from '../contract-types.js';
import type { AmountRow, DocumentBlock, DocumentContent } from '../documents/content.js';
import { documentPdf } from '../documents/pdf.js';
import type { DocumentLogo } from './branding.js';
import { minorOf, paragraphs, pricePerShare as formatPrice, wholeMoney } from '../documents/words.js';
import { RawResponse } from '../kernel/operations.js';
import type { Money } from '../money/converter.js';

type Schemas = components['schemas'];
type Statement = Schemas['TotalRewardsStatement'];
type Amount = Schemas['TotalRewardsAmount'];
export type PdfCurrency = 'local' | 'company';

/** "$67,176", or why there is no figure. */
const formatMoney = (money: Money | null): string => (money ? wholeMoney(money) : 'No reference rate');
const count = (value: number): string => value.toLocaleString('en-US');

/** One statement as a document's content: the PDF is drawn by the documents module, so it reads like every letter. */
export function statementContent(statement: Statement, currency: PdfCurrency): DocumentContent {
  const shown = (amount: Amount | null | undefined): string => formatMoney(amount ? amount[currency] : null);
  const blocks: DocumentBlock[] = [];
  const section = (title: string, text: string) => {
    blocks.push({ kind: 'heading', text: title }, ...paragraphs(text));
  };
  const table = (rows: AmountRow[]) => {
    if (rows.length) blocks.push({ kind: 'table', rows });
  };
  const { exchange, employee } = statement;
  const code = currency === 'local' ? exchange.local : exchange.company;
  const rateLine =
    exchange.local === exchange.company
      ? `Amounts in ${code}.`
      : exchange.rate === null
        ? `Amounts in ${code}; no reference rate converts ${exchange.local} to ${exchange.company}.`
        : `Amounts in ${code}; 1 ${exchange.local} = ${exchange.rate} ${exchange.company} (European Central Bank, ${exchange.date ?? statement.asOf}).`;
  blocks.push({ kind: 'paragraph', lines: [statement.appearance.bannerText] });
  blocks.push({
    kind: 'paragraph',
    lines: [[employee.title, employee.department].filter(Boolean).join(', '), `As of ${statement.asOf}.`, rateLine].filter(Boolean),
  });

  for (const name of statement.sectionOrder) {
    switch (name) {
      case 'overview': {
        const overview = statement.overview;
        if (!overview) break;
        section(overview.title, overview.text);
        table([...overview.breakdown.map((part) => ({ label: part.label, amount: shown(part.amount) })), { label: 'Total a year', amount: shown(overview.total), emphasis: true }]);
        for (const note of overview.notes) blocks.push({ kind: 'paragraph', lines: [note] });
        break;
      }
      case 'timeline': {
        const timeline = statement.timeline;
        if (!timeline) break;
        section(timeline.title, timeline.text);
        table(
          timeline.events.map((event) => ({
            label: `${event.date}  ${event.label}`,
            amount: event.amount ? shown(event.amount) : event.grant ? `${count(event.grant.shares)} shares` : '',
          })),
        );
        break;
      }
      case 'compensation':
      case 'salary':
      case 'bonus':
      case 'variablePay': {
        const pay = statement[name];
        if (!pay) break;
        section(pay.title, pay.text);
        table([
          ...pay.items.map((item) => ({
            label: item.target === 'percent' && item.percentOfBase !== null ? `${item.label} (${item.percentOfBase}% of base)` : item.label,
            amount: shown(item.amount),
          })),
          ...(pay.totalCash ? [{ label: 'Total cash a year', amount: shown(pay.totalCash), emphasis: true }] : []),
        ]);
        break;
      }
      case 'equity': {
        const equity = statement.equity;
        if (!equity) break;
        section(equity.title, equity.text);
        if (equity.show === 'value') blocks.push({ kind: 'paragraph', lines: [`Valued at ${formatPrice(equity.price.perShare, equity.price.currency)} a share.`] });
        for (const grant of equity.grants) {
          const strike = grant.strikePrice ? `, exercise price ${formatPrice(grant.strikePrice.perShare, grant.strikePrice.currency)}` : '';
          const cliff = grant.cliffDate ? `, ${grant.cliffMonths}-month cliff on ${grant.cliffDate}` : '';
          blocks.push({
            kind: 'paragraph',
            lines: [`Grant ${grant.grantNumber}: ${count(grant.shares)} ${grant.grantType === 'option' ? 'stock options' : grant.grantType === 'rsu' ? 'RSUs' : 'shares'} granted ${grant.grantDate}${strike}; vesting over ${grant.vestingMonths} months from ${grant.vestingStartDate}${cliff}, fully vested ${grant.fullyVestedDate}.`],
          });
          table([
            { label: 'Vested shares', amount: `${count(grant.vestedShares)} (${grant.vestedPercent}%)` },
            { label: 'Unvested shares', amount: count(grant.unvestedShares) },
            ...(grant.value
              ? [
                  { label: 'Vested value', amount: shown(grant.value.vested) },
                  { label: 'Unvested value', amount: shown(grant.value.unvested) },
                ]
              : []),
          ]);
        }
        if (equity.totals.value) table([{ label: 'All equity at this price', amount: shown(equity.totals.value.total), emphasis: true }]);
        break;
      }
      case 'futureGrants': {
        const future = statement.futureGrants;
        if (!future) break;
        section(future.title, future.text);
        table(future.years.map((year) => ({ label: `${year.year}: ${count(year.shares)} shares vest`, amount: year.value ? shown(year.value) : '' })));
        break;
      }
      case 'futureModeling': {
        const model = statement.futureModeling;
        if (!model) break;
        section(model.title, model.text);
        table(
          model.multiples.map((multiple) => {
            const price = model.price.perShare * multiple;
            const value = model.grants.reduce((sum, grant) => sum + grant.shares * Math.max(0, price - (grant.strikePerShare ?? 0)), 0);
            const money = { amount: minorOf(value, model.price.currency), currency: model.price.currency };
            return { label: `At ${multiple}x the share price (${formatPrice(price, model.price.currency)})`, amount: formatMoney(money) };
          }),
        );
        blocks.push({ kind: 'paragraph', lines: [`All granted shares, in ${model.price.currency}. A model, not a promise: it models no tax.`] });
        break;
      }
      case 'benefits': {
        const benefits = statement.benefits;
        if (!benefits) break;
        section(benefits.title, benefits.text);
        table([...benefits.items.map((item) => ({ label: item.name, amount: item.annualValue ? shown(item.annualValue) : 'Included' })), { label: 'Benefits a year', amount: shown(benefits.total), emphasis: true }]);
        break;
      }
      case 'aboutUs':
        if (statement.aboutUs) section(statement.aboutUs.title, statement.aboutUs.text);
        break;
      case 'learningHub': {
        const hub = statement.learningHub;
        if (!hub) break;
        section(hub.title, hub.text);
        for (const article of hub.articles) blocks.push({ kind: 'paragraph', lines: [article.title, article.summary].filter(Boolean) });
        break;
      }
    }
  }
  return {
    title: `Total rewards statement: ${employee.firstName} ${employee.lastName}`.trim(),
    branding: { companyName: statement.appearance.companyName, accentColor: statement.appearance.brandColor, logoText: statement.appearance.logoText },
    blocks,
  };
}

const fileStem = (statement: Statement): string =>
  `total-rewards-${statement.employee.firstName}-${statement.employee.lastName}-${statement.asOf}`
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');

/** The statement's PDF, with the company's logo when it has one (else the mark of initials). */
export async function statementPdf(statement: Statement, currency: PdfCurrency, logo: DocumentLogo | null = null): Promise<RawResponse> {
  const content = statementContent(statement, currency);
  if (logo) content.branding.logoSha256 = logo.sha256;
  const bytes = await documentPdf(content, { logo: logo?.bytes });
  return new RawResponse(Readable.from(bytes), 'application/pdf', `${fileStem(statement)}.pdf`, bytes.length);
}
