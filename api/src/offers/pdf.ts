import { Readable } from 'node:stream';
import type { components } from '../contract-types.js';
import type { AmountRow, DocumentBlock, DocumentContent } from '../documents/content.js';
import { documentPdf } from '../documents/pdf.js';
import { paragraphs, pricePerShare as formatPrice, wholeMoney as formatMoney } from '../documents/words.js';
import { RawResponse } from '../kernel/operations.js';

type Letter = components['schemas']['OfferLetter'];
type Package = components['schemas']['OfferPackage'];

function packageRows(pkg: Package): AmountRow[] {
  const rows: AmountRow[] = [{ label: 'Base salary a year', amount: formatMoney(pkg.base) }];
  if (pkg.bonusTarget) rows.push({ label: `Bonus target (${pkg.bonusTargetPercent ?? 0}% of base)`, amount: formatMoney(pkg.bonusTarget) });
  if (pkg.variable) rows.push({ label: 'Variable pay a year', amount: formatMoney(pkg.variable) });
  rows.push({ label: 'Total cash a year', amount: formatMoney(pkg.totalCash), emphasis: true });
  if (pkg.signOn) rows.push({ label: 'Sign-on bonus (once)', amount: formatMoney(pkg.signOn) });
  const equity = pkg.equity;
  if (equity) {
    rows.push({ label: equity.type === 'option' ? 'Stock options' : 'Restricted stock units', amount: `${equity.shares.toLocaleString('en-US')} shares` });
    if (equity.strikePrice !== null) rows.push({ label: 'Strike price per share', amount: formatPrice(equity.strikePrice, equity.priceCurrency) });
  }
  return rows;
}

function vestingLine(pkg: Package): string | null {
  const equity = pkg.equity;
  if (!equity) return null;
  const cliff = equity.cliffMonths ? `, with a ${equity.cliffMonths}-month cliff` : '';
  return `The grant vests over ${equity.vestingMonths} months${cliff}, then ${equity.vestingFrequency}, from your start date.`;
}

/** The letter as a document's content, drawn by the documents module like every letter. */
export function letterContent(letter: Letter): DocumentContent {
  const blocks: DocumentBlock[] = [];
  const name = `${letter.candidate.firstName} ${letter.candidate.lastName}`.trim();
  blocks.push({ kind: 'paragraph', lines: [`Dear ${letter.candidate.firstName || name},`] });
  if (letter.welcomeMessage.trim()) blocks.push(...paragraphs(letter.welcomeMessage));
  blocks.push({ kind: 'paragraph', lines: [`Position: ${letter.title}, ${letter.locationName}.`, `Start date: ${letter.startDate}.`, `This offer is open until the end of ${letter.expiresOn}.`] });
  // The range the job's posting published for this place (Article 5 of the EU Pay Transparency Directive), as the web letter shows it.
  if (letter.postedRange) blocks.push({ kind: 'table', rows: [{ label: 'Posted pay range', amount: `${formatMoney(letter.postedRange.min)} – ${formatMoney(letter.postedRange.max)}` }] });
  // Once accepted, the letter states the package agreed, not the choices that were on the table.
  const shown = letter.acceptance
    ? [{ heading: letter.acceptance.alternativeId ? `Your package: ${letter.acceptance.packageLabel}` : 'Your package', pkg: letter.acceptance.package }]
    : letter.packages.map((option, index) => ({ heading: index === 0 ? 'Your package' : `Alternative: ${option.label}`, pkg: option.package }));
  for (const option of shown) {
    blocks.push({ kind: 'heading', text: option.heading });
    blocks.push({ kind: 'table', rows: packageRows(option.pkg) });
    const vesting = vestingLine(option.pkg);
    if (vesting) blocks.push({ kind: 'paragraph', lines: [vesting] });
  }
  const facts = letter.equityFacts;
  if (facts && shown.some((option) => option.pkg.equity)) {
    blocks.push({ kind: 'heading', text: 'About your equity' });
    blocks.push({
      kind: 'paragraph',
      lines: [
        `Today's price per share is ${formatPrice(facts.pricePerShare, facts.currency)}.`,
        'An option is the right to buy a share at its strike price: it is worth the share price less the strike, and nothing when the price is at or below the strike.',
        'A restricted stock unit becomes a share as it vests: it is worth the share price.',
        'A model, not a promise: the value of equity can fall to zero.',
      ],
    });
  }
  if (letter.benefitsSummary.trim()) blocks.push({ kind: 'heading', text: 'Benefits' }, ...paragraphs(letter.benefitsSummary));
  if (letter.acceptance) {
    blocks.push({ kind: 'heading', text: 'Accepted' });
    blocks.push({ kind: 'paragraph', lines: [`Accepted by ${letter.acceptance.signature} at ${letter.acceptance.acceptedAt} (${letter.acceptance.packageLabel}, offer version ${letter.acceptance.offerVersion}).`] });
  }
  return {
    title: `Offer letter: ${name}`,
    branding: { companyName: letter.company.name, accentColor: letter.company.brandColor, logoText: letter.company.logoText },
    blocks,
  };
}

const fileStem = (letter: Letter): string =>
  `offer-${letter.candidate.firstName}-${letter.candidate.lastName}`
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');

export async function letterPdf(letter: Letter): Promise<RawResponse> {
  const bytes = await documentPdf(letterContent(letter));
  return new RawResponse(Readable.from(bytes), 'application/pdf', `${fileStem(letter) || 'offer'}.pdf`, bytes.length);
}
