import { type AmountRow, type DocumentBlock, type DocumentContent, brandingProblems, textOnAccent } from './content.js';

/**
 * A document as HTML for the screen: one `<article>` with inline styles, so it looks the same
 * wherever it is shown (a panel, a sandboxed frame, an e-mail) and as long as it is kept, without
 * the PWA's stylesheet. No scripts, no links, no images; every text is escaped.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);

const FONT = "Inter, system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif";
const RULE = '#e5e7eb';

function header(content: DocumentContent): string {
  const { accentColor, logoText, companyName } = content.branding;
  const mark = `display:inline-flex;align-items:center;justify-content:center;min-width:36px;height:36px;padding:0 6px;box-sizing:border-box;border-radius:8px;background:${accentColor};color:${textOnAccent(accentColor)};font-weight:700`;
  return (
    `<header style="display:flex;align-items:center;gap:12px;padding-bottom:12px;margin-bottom:24px;border-bottom:3px solid ${accentColor}">` +
    `<span aria-hidden="true" style="${mark}">${escapeHtml(logoText)}</span>` +
    `<span style="font-weight:700;font-size:1.1rem">${escapeHtml(companyName)}</span></header>`
  );
}

function tableRow(row: AmountRow): string {
  const weight = row.emphasis ? 700 : 400;
  const cell = `padding:6px 0;border-bottom:1px solid ${RULE};font-weight:${weight}`;
  return `<tr><th scope="row" style="text-align:left;${cell}">${escapeHtml(row.label)}</th><td style="text-align:right;font-variant-numeric:tabular-nums;${cell}">${escapeHtml(row.amount)}</td></tr>`;
}

function block(item: DocumentBlock, accent: string): string {
  if (item.kind === 'heading') return `<h2 style="font-size:1.1rem;margin:24px 0 8px;color:${accent}">${escapeHtml(item.text)}</h2>`;
  if (item.kind === 'paragraph') return `<p style="margin:0 0 12px">${item.lines.map(escapeHtml).join('<br>')}</p>`;
  return `<table style="width:100%;border-collapse:collapse;margin:0 0 16px"><tbody>${item.rows.map(tableRow).join('')}</tbody></table>`;
}

export function documentHtml(content: DocumentContent): string {
  // The accent goes into style attributes: only a checked colour may.
  if (brandingProblems(content.branding).length) throw new Error('documentHtml: the branding was not checked');
  const accent = content.branding.accentColor;
  return (
    `<article lang="en" style="font-family:${FONT};color:#1f2937;line-height:1.5;max-width:720px;margin:0 auto;padding:32px;background:#ffffff">` +
    header(content) +
    `<h1 style="font-size:1.5rem;margin:0 0 16px">${escapeHtml(content.title)}</h1>` +
    content.blocks.map((item) => block(item, accent)).join('') +
    '</article>'
  );
}
