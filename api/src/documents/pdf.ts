import PDFDocument from 'pdfkit';
import { type AmountRow, type Branding, type DocumentBlock, type DocumentContent, textOnAccent } from './content.js';

/**
 * A document as PDF, drawn with pdfkit from the same content as its HTML (no browser, no
 * screenshot): the branded header, the title, headings, paragraphs and label/amount tables.
 * pdfkit's built-in Helvetica needs no font file; it covers Windows-1252 (Western European
 * names), so other characters are written as their closest Latin letters (see `winAnsi`).
 */

const MARGIN = 56; // 2 cm
const INK = '#1f2937';
const RULE = '#e5e7eb';
const MARK = 30;
const CELL_PADDING = 5;

/** Characters Windows-1252 has beyond Latin-1, which Helvetica draws. */
const WIN_ANSI_EXTRA = new Set([0x152, 0x153, 0x160, 0x161, 0x178, 0x17d, 0x17e, 0x192, 0x2c6, 0x2dc, 0x2013, 0x2014, 0x2018, 0x2019, 0x201a, 0x201c, 0x201d, 0x201e, 0x2020, 0x2021, 0x2022, 0x2026, 0x2030, 0x2039, 0x203a, 0x20ac, 0x2122]);
/** Letters that do not decompose to a Latin one, and currency signs Helvetica lacks (amounts must stay readable). */
const NEAREST: Record<string, string> = {
  ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', ħ: 'h', Ħ: 'H', ı: 'i', ŀ: 'l', Ŀ: 'L', ŧ: 't', Ŧ: 'T', '−': '-', '‐': '-', '‑': '-',
  '₹': 'INR ', '₩': 'KRW ', '₽': 'RUB ', '₺': 'TRY ', '₪': 'ILS ', '₫': 'VND ', '₱': 'PHP ', '₦': 'NGN ', '₴': 'UAH ', '₸': 'KZT ', '₿': 'BTC ',
};

const drawable = (code: number): boolean => (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(code);

/** Text Helvetica can draw: line breaks kept, other spaces of every kind as spaces, accents dropped where the letter lacks one, else "?". */
export function winAnsi(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (drawable(code) || char === '\n') out += char;
    else if (/[\s\p{Zs}]/u.test(char)) out += ' ';
    else if (NEAREST[char]) out += NEAREST[char];
    else {
      const plain = char.normalize('NFKD').replace(/\p{M}/gu, '');
      out += plain && [...plain].every((part) => drawable(part.codePointAt(0) ?? 0)) ? plain : '?';
    }
  }
  return out;
}

type Doc = PDFKit.PDFDocument;

const innerWidth = (doc: Doc): number => doc.page.width - doc.page.margins.left - doc.page.margins.right;

/** The logo fitted into the header's height (at most four times as wide); returns the width it took. */
function drawLogo(doc: Doc, logo: Buffer, left: number, top: number): number {
  const image = (doc as Doc & { openImage(src: Buffer): { width: number; height: number } }).openImage(logo);
  const width = Math.min(MARK * 4, (MARK * image.width) / image.height);
  doc.image(logo, left, top, { fit: [width, MARK] });
  return width;
}

function drawHeader(doc: Doc, branding: Branding, logoImage: Buffer | undefined): void {
  const left = doc.page.margins.left;
  const top = doc.page.margins.top;
  let markWidth = MARK;
  if (logoImage) markWidth = drawLogo(doc, logoImage, left, top);
  else {
    const logo = winAnsi(branding.logoText);
    doc.roundedRect(left, top, MARK, MARK, 6).fill(branding.accentColor);
    const logoSize = logo.length > 2 ? 8 : 11;
    doc.font('Helvetica-Bold').fontSize(logoSize).fillColor(textOnAccent(branding.accentColor));
    doc.text(logo, left, top + (MARK - logoSize * 0.7) / 2, { width: MARK, align: 'center', lineBreak: false });
  }
  doc.font('Helvetica-Bold').fontSize(13).fillColor(INK).text(winAnsi(branding.companyName), left + markWidth + 12, top + 9, { width: innerWidth(doc) - markWidth - 12, lineBreak: false, ellipsis: true });
  doc.moveTo(left, top + MARK + 10).lineTo(left + innerWidth(doc), top + MARK + 10).lineWidth(2).strokeColor(branding.accentColor).stroke();
  doc.x = left;
  doc.y = top + MARK + 28;
}

function drawRow(doc: Doc, row: AmountRow): void {
  const left = doc.page.margins.left;
  const labelWidth = innerWidth(doc) * 0.62;
  const amountWidth = innerWidth(doc) - labelWidth - 12;
  doc.font(row.emphasis ? 'Helvetica-Bold' : 'Helvetica').fontSize(11).fillColor(INK);
  const label = winAnsi(row.label);
  const amount = winAnsi(row.amount);
  const height = Math.max(doc.heightOfString(label, { width: labelWidth }), doc.heightOfString(amount, { width: amountWidth })) + 2 * CELL_PADDING;
  // A row is never split across pages.
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
  const top = doc.y;
  doc.text(label, left, top + CELL_PADDING, { width: labelWidth });
  doc.text(amount, left + labelWidth + 12, top + CELL_PADDING, { width: amountWidth, align: 'right' });
  doc.moveTo(left, top + height).lineTo(left + innerWidth(doc), top + height).lineWidth(0.75).strokeColor(RULE).stroke();
  doc.x = left;
  doc.y = top + height;
}

function drawBlock(doc: Doc, block: DocumentBlock, accent: string): void {
  const options = { width: innerWidth(doc) };
  if (block.kind === 'heading') {
    doc.moveDown(0.4).font('Helvetica-Bold').fontSize(13).fillColor(accent).text(winAnsi(block.text), options).moveDown(0.3);
  } else if (block.kind === 'paragraph') {
    doc.font('Helvetica').fontSize(11).fillColor(INK).text(winAnsi(block.lines.join('\n')), { ...options, lineGap: 2 }).moveDown(0.7);
  } else {
    for (const row of block.rows) drawRow(doc, row);
    doc.moveDown(0.9);
  }
}

export interface PdfOptions {
  /** Deflate the page streams (default); tests turn it off to read the text back. */
  compress?: boolean;
  /** When the version was issued: the PDF's creation date, so it says when the document was made. */
  createdAt?: Date;
  /** The image `content.branding.logoSha256` names; without it the mark of initials is drawn. */
  logo?: Buffer | undefined;
}

/** The PDF of a document's content, in memory (documents are a few pages: a few kilobytes). */
export function documentPdf(content: DocumentContent, options: PdfOptions = {}): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    compress: options.compress ?? true,
    info: { Title: content.title, Author: content.branding.companyName, Creator: 'Paybench', CreationDate: options.createdAt ?? new Date() },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  drawHeader(doc, content.branding, options.logo);
  doc.font('Helvetica-Bold').fontSize(20).fillColor(INK).text(winAnsi(content.title), { width: innerWidth(doc) }).moveDown(0.6);
  for (const block of content.blocks) drawBlock(doc, block, content.branding.accentColor);
  doc.end();
  return done;
}
