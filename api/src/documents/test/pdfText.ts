import { inflateSync } from 'node:zlib';

/** A PDF's page streams, inflated when they are deflated (pdfkit's default). */
function streams(pdf: Buffer): string[] {
  const text = pdf.toString('latin1');
  const found: string[] = [];
  for (const match of text.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const end = text.indexOf('endstream', start);
    const raw = pdf.subarray(start, end);
    try {
      found.push(inflateSync(raw).toString('latin1'));
    } catch {
      found.push(raw.toString('latin1'));
    }
  }
  return found;
}

/**
 * The text a PDF shows, read back from pdfkit's `[<hex> kern <hex>] TJ` operators (standard fonts
 * encode Windows-1252, which is Latin-1 for the letters tests use). Tests only.
 */
export function pdfText(pdf: Buffer): string {
  const lines: string[] = [];
  for (const content of streams(pdf)) {
    for (const operator of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      const hex = [...(operator[1] ?? '').matchAll(/<([0-9a-fA-F]*)>/g)].map((piece) => piece[1]).join('');
      lines.push(Buffer.from(hex, 'hex').toString('latin1'));
    }
  }
  return lines.join('\n');
}
