import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { findCompany } from '../access/usersStore.js';
import { newId } from '../db/ids.js';
import { HttpError, badRequest, notFound, nulRefused } from '../kernel/errors.js';
import { versionConflict } from '../kernel/versions.js';
import { type Branding, type DocumentContent, brandingFor, brandingProblems } from './content.js';
import { documentHtml } from './html.js';
import { documentImages } from './images.js';
import { type PdfOptions, documentPdf } from './pdf.js';
import { type DocumentTemplate, type DocumentVersion, type DocumentVersionSummary, fileStem, presentTemplate, presentVersion, presentVersionSummary } from './present.js';
import * as store from './store.js';
import { type ParsedTemplate, type RenderedTemplate, TemplateSyntaxError, TemplateValueError, type VariableKind, type VariableValue, type Variables, parseTemplate, renderTemplate, unofferedVariables } from './template.js';

// ── templates ─────────────────────────────────────────────────────────────────────────────

export interface TemplateInput {
  /** What the module asks for ('merit.rewardLetter'); one template per key and company. */
  key: string;
  title: string;
  body: string;
}

export interface TemplateRules {
  /** The variables the module offers for this kind of document: any other placeholder is refused on saving. */
  variables?: Readonly<Record<string, VariableKind>>;
}

const KEY = /^[A-Za-z][A-Za-z0-9._-]{0,99}$/;

/** A template as it would be saved, or 400 naming every problem (with its line) in `body.title` / `body.body`. */
function checkedTemplate(input: { title: string; body: string }, rules: TemplateRules): ParsedTemplate {
  if (input.title.includes('\u0000') || input.body.includes('\u0000')) throw nulRefused('template');
  try {
    const parsed = parseTemplate(input);
    const problems = rules.variables ? unofferedVariables(parsed, rules.variables) : [];
    if (problems.length) throw new TemplateSyntaxError(problems);
    return parsed;
  } catch (error) {
    if (!(error instanceof TemplateSyntaxError)) throw error;
    const fields = error.problems.map((problem) => ({ field: `body.${problem.part}`, message: problem.line ? `line ${problem.line}: ${problem.message}` : problem.message }));
    throw badRequest(`The template cannot be used. ${error.message}`, fields);
  }
}

const parsedOf = (row: store.DocumentTemplateRow): ParsedTemplate => parseTemplate(row);

function checkedKey(key: string): string {
  if (!KEY.test(key)) throw badRequest('A template key is a letter, then letters, digits, ".", "_" or "-" (at most 100).', [{ field: 'body.key', message: 'is not a template key' }]);
  return key;
}

export async function getTemplate(db: Knex, scope: CompanyScope, key: string): Promise<DocumentTemplate | undefined> {
  const row = await store.findTemplateByKey(db, scope, key);
  return row && presentTemplate(row, parsedOf(row).variables);
}

function newTemplateRow(scope: CompanyScope, input: TemplateInput, actorUserId: string | null): store.DocumentTemplateRow {
  const now = new Date().toISOString();
  return { id: newId(), company_id: scope.companyId, key: checkedKey(input.key), title: input.title.trim(), body: input.body, version: 1, updated_by: actorUserId, created_at: now, updated_at: now };
}

/** A company's template of a key; 409 when it has one already (change that one instead). */
export async function createTemplate(db: Knex, scope: CompanyScope, actorUserId: string | null, input: TemplateInput, rules: TemplateRules = {}): Promise<DocumentTemplate> {
  const parsed = checkedTemplate(input, rules);
  const row = newTemplateRow(scope, input, actorUserId);
  if (!(await store.insertTemplateIfAbsent(db, row))) throw new HttpError(409, 'conflict', { message: `The company has a template “${input.key}” already; change that one.` });
  return presentTemplate(row, parsed.variables);
}

/** The company's template of the key, made from the module's default on first use (concurrent first uses agree). */
export async function ensureTemplate(db: Knex, scope: CompanyScope, defaults: TemplateInput, rules: TemplateRules = {}): Promise<DocumentTemplate> {
  const existing = await getTemplate(db, scope, defaults.key);
  if (existing) return existing;
  checkedTemplate(defaults, rules);
  await store.insertTemplateIfAbsent(db, newTemplateRow(scope, defaults, null));
  const row = await store.findTemplateByKey(db, scope, defaults.key);
  if (!row) throw new Error(`template ${defaults.key} vanished while it was made`);
  return presentTemplate(row, parsedOf(row).variables);
}

/** Changes a template at the version read (409 `version_conflict` otherwise); documents issued from it keep what they said. */
export async function updateTemplate(
  db: Knex,
  scope: CompanyScope,
  { actorUserId, id, version, input, rules = {} }: { actorUserId: string | null; id: string; version: number; input: { title: string; body: string }; rules?: TemplateRules },
): Promise<DocumentTemplate> {
  const parsed = checkedTemplate(input, rules);
  const changes = { title: input.title.trim(), body: input.body, updated_by: actorUserId, updated_at: new Date().toISOString() };
  if (!(await store.updateTemplate(db, scope, id, version, changes))) {
    const current = await store.findTemplate(db, scope, id);
    if (!current) throw notFound();
    throw versionConflict('this template', Number(current.version));
  }
  const row = await store.findTemplate(db, scope, id);
  if (!row) throw notFound();
  return presentTemplate(row, parsed.variables);
}

// ── rendering ─────────────────────────────────────────────────────────────────────────────

/** The company's branding: its name and the default accent until communicate settings give more. */
export async function companyBranding(db: Knex, scope: CompanyScope, overrides: Partial<Branding> = {}): Promise<Branding> {
  const company = await findCompany(db, scope);
  if (!company) throw notFound();
  return brandingFor(company.name, overrides);
}

export interface DocumentToRender {
  /** What the document is about, in the module's terms ('meritRecommendation', its id). */
  subjectType: string;
  subjectId: string;
  variables: Variables;
}

export interface RenderRequest {
  templateKey: string;
  branding: Branding;
  /** Who issued it; null for the system (a scheduled job). */
  createdBy: string | null;
}

/** Subjects are named by the module's short type and id (columns of 64): anything else is a bug there. */
function checkSubject(item: DocumentToRender): void {
  for (const value of [item.subjectType, item.subjectId]) {
    if (!value || value.length > 64) throw new Error(`a document's subject type and id are 1 to 64 characters: “${value.slice(0, 80)}”`);
  }
}

export const htmlDigest = (html: string): string => createHash('sha256').update(html, 'utf8').digest('hex');

function checkedBranding(branding: Branding): Branding {
  const problems = brandingProblems(branding);
  if (problems.length) throw badRequest('The branding cannot be used.', problems.map((problem) => ({ field: `branding.${problem.field}`, message: problem.message })));
  return { companyName: branding.companyName.trim(), accentColor: branding.accentColor.toLowerCase(), logoText: branding.logoText.trim(), ...(branding.logoSha256 ? { logoSha256: branding.logoSha256 } : {}) };
}

/** The template with one document's values, or 400 naming the variable at fault. */
function rendered(template: store.DocumentTemplateRow, parsed: ParsedTemplate, item: DocumentToRender): RenderedTemplate {
  try {
    return renderTemplate(parsed, item.variables);
  } catch (error) {
    if (!(error instanceof TemplateValueError)) throw error;
    throw new HttpError(400, error.code, { message: `${error.message} (template “${template.key}”, ${item.subjectType} ${item.subjectId})`, errors: [{ field: `variables.${error.variable}`, message: error.message }] });
  }
}

/** A new version row for one document. */
function renderedRow(scope: CompanyScope, template: store.DocumentTemplateRow, parsed: ParsedTemplate, branding: Branding, createdBy: string | null, item: DocumentToRender, at: string): store.DocumentVersionRow {
  const { title, blocks, used } = rendered(template, parsed, item);
  const content: DocumentContent = { title, branding, blocks };
  const html = documentHtml(content);
  if (html.includes('\u0000')) throw nulRefused('document');
  return {
    id: newId(),
    company_id: scope.companyId,
    template_id: template.id,
    template_version: Number(template.version),
    subject_type: item.subjectType,
    subject_id: item.subjectId,
    title: title.slice(0, 500),
    variables: JSON.stringify(used),
    content: JSON.stringify(content),
    html,
    html_sha256: htmlDigest(html),
    created_by: createdBy,
    created_at: at,
  };
}

/**
 * Renders the company's template for many subjects at once (a cycle's letters): the template is
 * read and parsed once, every document checked before any is written, and all written with `db`
 * (a transaction keeps them with the change that issued them). Each is a new, immutable version.
 */
export async function renderDocuments(db: Knex, scope: CompanyScope, request: RenderRequest & { documents: DocumentToRender[] }): Promise<DocumentVersion[]> {
  const template = await store.findTemplateByKey(db, scope, request.templateKey);
  if (!template) throw notFound(`The company has no template “${request.templateKey}”.`);
  const parsed = parsedOf(template);
  const branding = checkedBranding(request.branding);
  const at = new Date().toISOString();
  request.documents.forEach(checkSubject);
  const rows = request.documents.map((item) => renderedRow(scope, template, parsed, branding, request.createdBy, item, at));
  await store.insertVersions(db, rows);
  return rows.map(presentVersion);
}

export async function renderDocument(db: Knex, scope: CompanyScope, request: RenderRequest & DocumentToRender): Promise<DocumentVersion> {
  const [version] = await renderDocuments(db, scope, { ...request, documents: [request] });
  if (!version) throw new Error('rendering one document made none');
  return version;
}

/** A document a module composes itself (a total-rewards statement), its content as drawn. */
export interface ComposedDocument {
  subjectType: string;
  subjectId: string;
  content: DocumentContent;
  /** What it was composed from, kept with it as issued. */
  variables: Readonly<Record<string, VariableValue>>;
}

/**
 * Stores documents a module composed itself as immutable versions, like rendered ones: under the
 * company's template of the key (made from `template` on first use; it names the kind of document,
 * its body is not rendered), the branding checked, written with `db` (a transaction keeps them with
 * the change that issued them).
 */
export async function issueComposedDocuments(
  db: Knex,
  scope: CompanyScope,
  request: { template: TemplateInput; createdBy: string | null; documents: ComposedDocument[] },
): Promise<DocumentVersion[]> {
  const template = await ensureTemplate(db, scope, request.template);
  const at = new Date().toISOString();
  const rows = request.documents.map((item): store.DocumentVersionRow => {
    checkSubject({ ...item, variables: {} });
    const content: DocumentContent = { ...item.content, branding: checkedBranding(item.content.branding) };
    const html = documentHtml(content);
    if (html.includes('\u0000')) throw nulRefused('document');
    return {
      id: newId(),
      company_id: scope.companyId,
      template_id: template.id,
      template_version: template.version,
      subject_type: item.subjectType,
      subject_id: item.subjectId,
      title: content.title.slice(0, 500),
      variables: JSON.stringify(item.variables),
      content: JSON.stringify(content),
      html,
      html_sha256: htmlDigest(html),
      created_by: request.createdBy,
      created_at: at,
    };
  });
  await store.insertVersions(db, rows);
  return rows.map(presentVersion);
}

// ── reading ───────────────────────────────────────────────────────────────────────────────

/** A version of the company's; another company's id (or none) is undefined. */
export async function findDocumentVersion(db: Knex, scope: CompanyScope, id: string): Promise<DocumentVersion | undefined> {
  const row = await store.findVersion(db, scope, id);
  return row && presentVersion(row);
}

/** Like `findDocumentVersion`, 404 when it is not the company's. */
export async function getDocumentVersion(db: Knex, scope: CompanyScope, id: string): Promise<DocumentVersion> {
  const version = await findDocumentVersion(db, scope, id);
  if (!version) throw notFound();
  return version;
}

/** Every document issued about a subject, newest first. */
export async function documentVersionsOf(db: Knex, scope: CompanyScope, subjectType: string, subjectId: string): Promise<DocumentVersionSummary[]> {
  return (await store.listVersions(db, scope, subjectType, subjectId)).map(presentVersionSummary);
}

/** Every document issued about a subject with the values it was issued with, newest first. */
export async function documentVersionsWithVariablesOf(
  db: Knex,
  scope: CompanyScope,
  subjectType: string,
  subjectId: string,
): Promise<(DocumentVersionSummary & { variables: Record<string, VariableValue> })[]> {
  return (await store.listVersionsWithVariables(db, scope, subjectType, subjectId)).map((row) => ({
    ...presentVersionSummary(row),
    variables: JSON.parse(row.variables) as Record<string, VariableValue>,
  }));
}

export interface VersionPdf {
  filename: string;
  bytes: Buffer;
}

/** The logo a stored version names, if any (read from its content as issued). */
export const logoOfVersion = (version: store.VersionForPdf): string | null => (JSON.parse(version.content) as DocumentContent).branding.logoSha256 ?? null;

/**
 * The PDF of a version as stored (its content and branding as issued), named after its title. The
 * logo it was issued with comes from `images` (by its hash); a version without one draws the mark.
 */
export async function pdfOfStoredVersion(version: store.VersionForPdf, options: PdfOptions & { images?: ReadonlyMap<string, Buffer> } = {}): Promise<VersionPdf> {
  const content = JSON.parse(version.content) as DocumentContent;
  const { images, ...rest } = options;
  const logo = content.branding.logoSha256 ? images?.get(content.branding.logoSha256) : undefined;
  const bytes = await documentPdf(content, { createdAt: new Date(version.created_at), logo, ...rest });
  return { filename: `${fileStem(version.title)}.pdf`, bytes };
}

export async function versionPdf(db: Knex, scope: CompanyScope, id: string, options: PdfOptions = {}): Promise<VersionPdf> {
  const [version] = await store.versionsForPdf(db, scope, [id]);
  if (!version) throw notFound();
  const logo = logoOfVersion(version);
  return pdfOfStoredVersion(version, { ...options, images: await documentImages(db, scope, logo ? [logo] : []) });
}
