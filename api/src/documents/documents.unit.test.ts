import { createWriteStream, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type DocumentContent, brandingFor, brandingProblems, initialsOf, textOnAccent } from './content.js';
import { documentHtml, escapeHtml } from './html.js';
import { documentPdf, winAnsi } from './pdf.js';
import { fileStem } from './present.js';
import { TemplateSyntaxError, TemplateValueError, type Variables, parseTemplate, renderTemplate, unofferedVariables } from './template.js';
import { pdfText } from './test/pdfText.js';
import { readZip } from './test/readZip.js';
import { ZipWriter } from './zip.js';

const letter = {
  title: 'Reward letter for {{ name }}',
  body: ['Dear {{name}},', 'your pay changes.', '', '# From {{date}}', '| Base salary | {{base}} |', '{{table extras}}', '| **Total** | {{total}} |', '', 'Regards,', '{{signatory}}'].join('\n'),
};

const problemsOf = (template: { title: string; body: string }): string[] => {
  try {
    parseTemplate(template);
  } catch (error) {
    if (error instanceof TemplateSyntaxError) return error.problems.map((problem) => `${problem.part}:${problem.line ?? '-'}: ${problem.message}`);
    throw error;
  }
  return [];
};

describe('templates', () => {
  it('parses blocks and the variables they use, then renders values into the text only', () => {
    const parsed = parseTemplate(letter);
    expect([...parsed.variables]).toEqual([['name', 'text'], ['date', 'text'], ['base', 'text'], ['extras', 'rows'], ['total', 'text'], ['signatory', 'text']]);
    const rendered = renderTemplate(parsed, {
      name: 'Ada | # <b>',
      date: '2026-01-01',
      base: '$120,000.00',
      extras: [{ label: 'Bonus target', amount: '$12,000.00' }],
      total: '$132,000.00',
      signatory: 'Grace Hopper\nChief People Officer',
      unused: 'not kept',
    });
    expect(rendered.title).toBe('Reward letter for Ada | # <b>');
    expect(rendered.blocks).toEqual([
      { kind: 'paragraph', lines: ['Dear Ada | # <b>,', 'your pay changes.'] },
      { kind: 'heading', text: 'From 2026-01-01' },
      {
        kind: 'table',
        rows: [
          { label: 'Base salary', amount: '$120,000.00' },
          { label: 'Bonus target', amount: '$12,000.00' },
          { label: 'Total', amount: '$132,000.00', emphasis: true },
        ],
      },
      { kind: 'paragraph', lines: ['Regards,', 'Grace Hopper', 'Chief People Officer'] },
    ]);
    expect(Object.keys(rendered.used)).not.toContain('unused');
  });

  it('refuses what is not a placeholder, with the line', () => {
    expect(problemsOf({ title: 'T', body: 'Hello\n{{first name}}' })).toEqual(['body:2: “{{first name}}” is not a placeholder. Write {{name}} with letters, digits and _ only.']);
    expect(problemsOf({ title: 'T', body: 'Pay: {{table rows}}' })[0]).toMatch(/goes on a line of its own/);
    expect(problemsOf({ title: 'T', body: '{{{raw}}}' })[0]).toMatch(/Triple braces/);
    expect(problemsOf({ title: 'T', body: '| a | b | c |' })[0]).toMatch(/^body:1: A table row has a label and an amount/);
    expect(problemsOf({ title: '', body: '' })).toEqual(['title:-: A title is 1 to 500 characters.', 'body:-: The template has no text.']);
    expect(problemsOf({ title: 'T', body: '{{x}}\n{{table x}}' })[0]).toMatch(/both as text and as/);
  });

  it('refuses placeholders the module does not offer', () => {
    const parsed = parseTemplate({ title: 'T', body: '{{firstName}} {{salray}}\n{{table rows}}' });
    expect(unofferedVariables(parsed, { firstName: 'text', salary: 'text', rows: 'rows' }).map((problem) => problem.message)).toEqual([
      '{{salray}} is not a variable of this document; use one of: firstName, rows, salary.',
    ]);
    expect(unofferedVariables(parsed, { firstName: 'text', salray: 'rows', rows: 'text' })).toHaveLength(2);
  });

  it('refuses a placeholder without a value, and values of the wrong kind', () => {
    const parsed = parseTemplate({ title: '{{a}}', body: 'x {{b}}\n{{table c}}' });
    const attempt = (values: Record<string, unknown>): TemplateValueError => {
      try {
        renderTemplate(parsed, values as Variables);
      } catch (error) {
        if (error instanceof TemplateValueError) return error;
      }
      throw new Error('expected a refusal');
    };
    expect(attempt({ a: 'A', c: [] })).toMatchObject({ code: 'unknown_variable', variable: 'b', message: 'The template uses {{b}}, which has no value here (values were given for: a, c).' });
    expect(attempt({ a: 'A', b: null, c: [] })).toMatchObject({ code: 'unknown_variable', variable: 'b' });
    expect(attempt({ a: { toString: () => 'x' }, b: 'B', c: [] })).toMatchObject({ code: 'invalid_variable', variable: 'a' });
    expect(attempt({ a: 'A', b: 'B', c: 'rows' })).toMatchObject({ code: 'invalid_variable', variable: 'c' });
    expect(attempt({ a: 'A', b: 'B', c: [{ label: 'x' }] })).toMatchObject({ code: 'invalid_variable', variable: 'c' });
    expect(renderTemplate(parsed, { a: 2026, b: 'B', c: [] }).title).toBe('2026');
  });
});

const content = (name: string): DocumentContent => ({
  title: `Reward letter — ${name}`,
  branding: brandingFor('Acme Robotics'),
  blocks: [
    { kind: 'paragraph', lines: [`Dear ${name},`, 'Line two.'] },
    { kind: 'heading', text: 'Your pay' },
    { kind: 'table', rows: [{ label: 'Base salary', amount: '$120,000.00' }, { label: 'Total', amount: '$132,000.00', emphasis: true }] },
  ],
});

describe('HTML and PDF from the same content', () => {
  it('escapes every text and carries the branding', () => {
    const html = documentHtml(content('<script>alert("x")</script>'));
    expect(html).not.toContain('<script');
    expect(html).toContain('Dear &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;,<br>Line two.');
    expect(html).toContain('border-bottom:3px solid #3b5bdb');
    expect(html).toContain('>AR</span>');
    expect(escapeHtml(`a&b<'">`)).toBe('a&amp;b&lt;&#39;&quot;&gt;');
    expect(() => documentHtml({ ...content('x'), branding: { ...brandingFor('A'), accentColor: 'red;background:url(x)' } })).toThrow(/branding/);
  });

  it('checks branding and picks readable text on the accent', () => {
    expect(initialsOf('Acme Robotics Inc.')).toBe('AR');
    expect(initialsOf('  zoë   éclair ')).toBe('ZÉ');
    expect(initialsOf('!!!')).toBe('•');
    expect(brandingProblems({ companyName: 'A', accentColor: '#12345', logoText: 'TOOLONG' }).map((problem) => problem.field)).toEqual(['accentColor', 'logoText']);
    expect(textOnAccent('#3b5bdb')).toBe('#ffffff');
    expect(textOnAccent('#ffe066')).toBe('#111827');
  });

  it('draws the same content as a PDF, in Windows-1252 text', async () => {
    const pdf = await documentPdf(content('Zoë Adams'), { compress: false });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf);
    expect(text).toContain('Dear Zo');
    expect(text.replace(/\n/g, '')).toContain('Zoë Adams');
    expect(text).toContain('Acme Robotics');
    // Deflated by default; the text reads back the same.
    expect(pdfText(await documentPdf(content('Zoë Adams')))).toBe(text);
  });

  it('writes what Helvetica lacks as its nearest Latin text', () => {
    expect(winAnsi('Łukasz Wałęsa')).toBe('Lukasz Walesa');
    expect(winAnsi('₹1,00,000 and 1 234 €')).toBe('INR 1,00,000 and 1 234 €');
    expect(winAnsi('李\tx\ny')).toBe('? x\ny');
  });

  it('names files safely', () => {
    expect(fileStem('Reward letter — Zoë Adams')).toBe('reward-letter-zoe-adams');
    expect(fileStem('???')).toBe('document');
  });
});

describe('ZIP archives', () => {
  it('round-trips entries with UTF-8 names', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    const zip = new ZipWriter(out);
    await zip.add('zoë.pdf', Buffer.from('%PDF-1.3 one'), new Date('2026-11-24T10:00:00Z'));
    await zip.add('two.pdf', Buffer.alloc(100_000, 7), new Date('2026-11-24T10:00:00Z'));
    await zip.finish();
    const entries = readZip(Buffer.concat(chunks));
    expect(entries.map((entry) => [entry.name, entry.data.length])).toEqual([['zoë.pdf', 12], ['two.pdf', 100_000]]);
    expect(entries[0]?.data.toString()).toBe('%PDF-1.3 one');
  });

  it('an abandoned archive refuses further entries', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'paybench-zip-')), 'a.zip');
    const zip = new ZipWriter(createWriteStream(file));
    await zip.add('a.pdf', Buffer.alloc(100, 1), new Date());
    await zip.add('b.pdf', Buffer.alloc(100, 1), new Date());
    zip.abort();
    await expect(zip.add('c.pdf', Buffer.alloc(1), new Date())).rejects.toThrow(/abandoned/);
  });
});
