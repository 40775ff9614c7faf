import type { AmountRow, DocumentBlock } from './content.js';

/**
 * The template language, kept small and strict (no logic, no raw HTML):
 *
 *     Dear {{firstName}},                       a paragraph; its lines stay lines
 *                                               a blank line ends it
 *     # Your pay from {{effectiveDate}}         a heading
 *     | Base salary | {{baseSalary}} |          a table row: a label and an amount
 *     | **Total** | {{total}} |                 a row in bold
 *     {{table components}}                      rows from a list variable, on a line of its own
 *
 * Placeholders are `{{name}}` (letters, digits, _). The template is parsed into blocks first and
 * values are put into those blocks' text afterwards, so a value can never add a row, a heading or
 * markup; the HTML writer escapes every piece of text.
 */

export type VariableKind = 'text' | 'rows';
/** A text value (numbers are written as given) or the rows of a `{{table name}}`. */
export type VariableValue = string | number | readonly AmountRow[];
export type Variables = Readonly<Record<string, VariableValue | null | undefined>>;

type Piece = string | { variable: string };
type Inline = Piece[];
type TemplateRow = { label: Inline; amount: Inline; emphasis: boolean } | { rowsOf: string };
type TemplateBlock = { kind: 'heading'; text: Inline } | { kind: 'paragraph'; lines: Inline[] } | { kind: 'table'; rows: TemplateRow[] };

export interface ParsedTemplate {
  title: Inline;
  blocks: TemplateBlock[];
  /** Every variable the template uses, with how it uses it. */
  variables: ReadonlyMap<string, VariableKind>;
}

export interface TemplateProblem {
  /** `title` or `body`. */
  part: 'title' | 'body';
  line?: number;
  message: string;
}

/** The template cannot be parsed: every problem, with its line. */
export class TemplateSyntaxError extends Error {
  constructor(readonly problems: TemplateProblem[]) {
    super(problems.map((problem) => (problem.line ? `Line ${problem.line}: ${problem.message}` : problem.message)).join(' '));
  }
}

/** Why rendering stopped: a variable without a value, or a value of the wrong kind. */
export class TemplateValueError extends Error {
  constructor(
    readonly code: 'unknown_variable' | 'invalid_variable',
    readonly variable: string,
    message: string,
  ) {
    super(message);
  }
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const TABLE_LINE = /^\{\{\s*table\s+([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;
const ROW_LINE = /^\|(.*)\|$/;
const EMPHASIS = /^\*\*(.+)\*\*$/;
export const MAX_TEMPLATE_LENGTH = 100_000;
export const MAX_TITLE_LENGTH = 500;

class Parser {
  readonly problems: TemplateProblem[] = [];
  readonly variables = new Map<string, VariableKind>();

  use(name: string, kind: VariableKind, part: TemplateProblem['part'], line?: number): void {
    const known = this.variables.get(name);
    if (known && known !== kind) this.problems.push({ part, line, message: `{{${name}}} is used both as text and as {{table ${name}}}; use two names.` });
    this.variables.set(name, kind);
  }

  inline(text: string, part: TemplateProblem['part'], line?: number): Inline {
    if (text.includes('{{{')) this.problems.push({ part, line, message: 'Triple braces are not placeholders: every value is written as text, never as markup. Write {{name}}.' });
    const pieces: Inline = [];
    let at = 0;
    for (const match of text.matchAll(PLACEHOLDER)) {
      this.literal(text.slice(at, match.index), pieces, part, line);
      const name = match[1] as string;
      this.use(name, 'text', part, line);
      pieces.push({ variable: name });
      at = match.index + match[0].length;
    }
    this.literal(text.slice(at), pieces, part, line);
    return pieces;
  }

  private literal(text: string, pieces: Inline, part: TemplateProblem['part'], line?: number): void {
    if (!text) return;
    const stray = text.indexOf('{{');
    if (stray >= 0) {
      const shown = text.slice(stray, stray + 30);
      const hint = /^\{\{\s*table\s/.test(shown) ? ' {{table name}} goes on a line of its own.' : ' Write {{name}} with letters, digits and _ only.';
      this.problems.push({ part, line, message: `“${shown}” is not a placeholder.${hint}` });
    }
    pieces.push(text);
  }

  row(cells: string, line: number): TemplateRow | undefined {
    const parts = cells.split('|');
    if (parts.length !== 2) {
      this.problems.push({ part: 'body', line, message: 'A table row has a label and an amount: | Base salary | {{baseSalary}} |' });
      return undefined;
    }
    const [label, amount] = parts.map((part) => part.trim()) as [string, string];
    const bold = EMPHASIS.exec(label);
    return { label: this.inline(bold ? (bold[1] as string) : label, 'body', line), amount: this.inline(amount, 'body', line), emphasis: Boolean(bold) };
  }
}

/** What one line of the body is. */
function lineKind(line: string): 'blank' | 'heading' | 'rows' | 'table' | 'text' {
  if (!line) return 'blank';
  if (line.startsWith('# ')) return 'heading';
  if (TABLE_LINE.test(line)) return 'rows';
  if (ROW_LINE.test(line)) return 'table';
  return 'text';
}

function parseBody(parser: Parser, body: string): TemplateBlock[] {
  const blocks: TemplateBlock[] = [];
  let open: TemplateBlock | undefined;
  body.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    const number = index + 1;
    const kind = lineKind(line);
    if (kind === 'blank' || kind === 'heading') open = undefined;
    if (kind === 'heading') blocks.push({ kind: 'heading', text: parser.inline(line.slice(2).trim(), 'body', number) });
    if (kind === 'text') {
      if (open?.kind !== 'paragraph') blocks.push((open = { kind: 'paragraph', lines: [] }));
      open.lines.push(parser.inline(line, 'body', number));
    }
    if (kind === 'table' || kind === 'rows') {
      if (open?.kind !== 'table') blocks.push((open = { kind: 'table', rows: [] }));
      const name = TABLE_LINE.exec(line)?.[1];
      if (name) parser.use(name, 'rows', 'body', number);
      const row = name ? { rowsOf: name } : parser.row((ROW_LINE.exec(line)?.[1] ?? '').trim(), number);
      if (row) open.rows.push(row);
    }
  });
  return blocks;
}

/** Parses a template's title and body; every problem at once, with line numbers. */
export function parseTemplate(template: { title: string; body: string }): ParsedTemplate {
  const parser = new Parser();
  if (!template.title.trim() || template.title.length > MAX_TITLE_LENGTH) parser.problems.push({ part: 'title', message: `A title is 1 to ${MAX_TITLE_LENGTH} characters.` });
  if (template.body.length > MAX_TEMPLATE_LENGTH) parser.problems.push({ part: 'body', message: `A template is at most ${MAX_TEMPLATE_LENGTH} characters.` });
  if (/[\r\n]/.test(template.title)) parser.problems.push({ part: 'title', message: 'A title is one line.' });
  const title = parser.inline(template.title.trim(), 'title');
  const blocks = parseBody(parser, template.body);
  if (!blocks.length) parser.problems.push({ part: 'body', message: 'The template has no text.' });
  if (parser.problems.length) throw new TemplateSyntaxError(parser.problems);
  return { title, blocks, variables: parser.variables };
}

/** Placeholders a module does not offer (a typo, or a variable of another kind of document). */
export function unofferedVariables(parsed: ParsedTemplate, offered: Readonly<Record<string, VariableKind>>): TemplateProblem[] {
  const names = Object.keys(offered).sort().join(', ');
  return [...parsed.variables].flatMap(([name, kind]): TemplateProblem[] => {
    if (offered[name] === kind) return [];
    if (offered[name]) return [{ part: 'body', message: kind === 'rows' ? `{{${name}}} is text, not rows for {{table ${name}}}.` : `{{${name}}} is a list of rows: write {{table ${name}}} on a line of its own.` }];
    return [{ part: 'body', message: `{{${name}}} is not a variable of this document; use one of: ${names || 'none'}.` }];
  });
}

// ── rendering ─────────────────────────────────────────────────────────────────────────────

function valueOf(values: Variables, name: string): VariableValue {
  const value = Object.hasOwn(values, name) ? values[name] : undefined;
  if (value === undefined || value === null) {
    const given = Object.keys(values).sort().join(', ') || 'none';
    throw new TemplateValueError('unknown_variable', name, `The template uses {{${name}}}, which has no value here (values were given for: ${given}).`);
  }
  return value;
}

function textOf(values: Variables, name: string): string {
  const value = valueOf(values, name);
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new TemplateValueError('invalid_variable', name, `{{${name}}} must be text.`);
}

const isRow = (row: unknown): row is AmountRow =>
  typeof row === 'object' && row !== null && typeof (row as AmountRow).label === 'string' && typeof (row as AmountRow).amount === 'string';

function rowsOf(values: Variables, name: string): AmountRow[] {
  const value = valueOf(values, name);
  if (!Array.isArray(value) || !value.every(isRow)) throw new TemplateValueError('invalid_variable', name, `{{table ${name}}} needs a list of rows, each with a label and an amount.`);
  return value.map((row: AmountRow) => amountRow(row.label, row.amount, row.emphasis === true));
}

/** `emphasis` only where it is set, so stored content stays small. */
const amountRow = (label: string, amount: string, emphasis: boolean): AmountRow => (emphasis ? { label, amount, emphasis } : { label, amount });

/** Text with its values; a value's line breaks become spaces (headings, cells, the title). */
function fill(pieces: Inline, values: Variables): string {
  return pieces.map((piece) => (typeof piece === 'string' ? piece : textOf(values, piece.variable))).join('');
}

function renderBlock(block: TemplateBlock, values: Variables): DocumentBlock {
  const oneLine = (pieces: Inline) => fill(pieces, values).replace(/\s*\r?\n\s*/g, ' ');
  if (block.kind === 'heading') return { kind: 'heading', text: oneLine(block.text) };
  // In a paragraph a value's line breaks stay (an address, a signature).
  if (block.kind === 'paragraph') return { kind: 'paragraph', lines: block.lines.flatMap((line) => fill(line, values).split(/\r?\n/)) };
  return {
    kind: 'table',
    rows: block.rows.flatMap((row) => ('rowsOf' in row ? rowsOf(values, row.rowsOf) : [amountRow(oneLine(row.label), oneLine(row.amount), row.emphasis)])),
  };
}

export interface RenderedTemplate {
  title: string;
  blocks: DocumentBlock[];
  /** The values the template used, as given: the version's snapshot (values it did not use are not kept). */
  used: Record<string, VariableValue>;
}

/** Puts the values into a parsed template; a placeholder without a value stops it (never an empty gap). */
export function renderTemplate(parsed: ParsedTemplate, values: Variables): RenderedTemplate {
  const title = fill(parsed.title, values).replace(/\s*\r?\n\s*/g, ' ');
  const blocks = parsed.blocks.map((block) => renderBlock(block, values));
  const used: Record<string, VariableValue> = {};
  for (const name of parsed.variables.keys()) used[name] = valueOf(values, name);
  return { title, blocks, used };
}
