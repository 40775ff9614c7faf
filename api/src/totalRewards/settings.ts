import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { isoTimestampOrNull } from '../db/timestamps.js';
import { readDocumentImage, storeDocumentImage } from '../documents/images.js';
import { TemplateSyntaxError, parseTemplate, renderTemplate, unofferedVariables } from '../documents/template.js';
import { HttpError, type FieldError, badRequest } from '../kernel/errors.js';
import { versionConflict, versionOf } from '../kernel/versions.js';
import { minorUnitOf } from '../money/minorUnits.js';
import { emit } from '../platform/events.js';
import { DEFAULT_SETTINGS } from './defaults.js';
import { type CommunicateSettingsRow, type SettingsColumns, findSettingsRow, insertSettingsRow, updateSettingsRow } from './store.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];
export type CommunicateSettings = Schemas['CommunicateSettings'];
export type SettingsDraft = Schemas['CommunicateSettingsDraft'];

// ── reading ──────────────────────────────────────────────────────────────────────────────

const parsed = <T>(text: string | null | undefined): T | undefined => (text ? (JSON.parse(text) as T) : undefined);

/** The stored document over the defaults: a part never saved is the product's default. */
export function settingsOfRow(row: CommunicateSettingsRow | undefined): CommunicateSettings {
  const appearance = parsed<Omit<Schemas['CommunicateAppearance'], 'logo' | 'bannerImage'>>(row?.appearance);
  return {
    version: row?.version ?? 0,
    updatedAt: isoTimestampOrNull(row?.updated_at),
    appearance: {
      ...DEFAULT_SETTINGS.appearance,
      ...appearance,
      logo: row?.logo ?? null,
      bannerImage: row?.banner_image ?? null,
    },
    // Sections stored before a section existed keep its default.
    sections: { ...DEFAULT_SETTINGS.sections, ...parsed<Partial<Schemas['CommunicateSections']>>(row?.sections) },
    equityDisplay: parsed<Schemas['EquityDisplay']>(row?.equity_display) ?? DEFAULT_SETTINGS.equityDisplay,
    futureModeling: parsed<Schemas['FutureModelingSettings']>(row?.future_modeling) ?? DEFAULT_SETTINGS.futureModeling,
    benefits: parsed<Schemas['CommunicateBenefit'][]>(row?.benefits) ?? DEFAULT_SETTINGS.benefits,
    userGroups: parsed<Schemas['CommunicateUserGroup'][]>(row?.user_groups) ?? DEFAULT_SETTINGS.userGroups,
    learningHub: parsed<Schemas['LearningHubSettings']>(row?.learning_hub) ?? DEFAULT_SETTINGS.learningHub,
  };
}

export async function storedSettings(db: Knex, scope: CompanyScope): Promise<CommunicateSettings> {
  return settingsOfRow(await findSettingsRow(db, scope));
}

/** The settings a statement is shaped by: the stored ones, or those with a draft's parts over them (a preview). */
export function withDraft(settings: CommunicateSettings, draft: SettingsDraft | undefined): CommunicateSettings {
  if (!draft) return settings;
  return {
    ...settings,
    ...(draft.appearance ? { appearance: draft.appearance } : {}),
    ...(draft.sections ? { sections: { ...settings.sections, ...draft.sections } } : {}),
    ...(draft.equityDisplay ? { equityDisplay: draft.equityDisplay } : {}),
    ...(draft.futureModeling ? { futureModeling: { ...draft.futureModeling, multiples: sortedMultiples(draft.futureModeling.multiples) } } : {}),
    ...(draft.benefits ? { benefits: draft.benefits } : {}),
    ...(draft.userGroups ? { userGroups: draft.userGroups } : {}),
    ...(draft.learningHub ? { learningHub: draft.learningHub } : {}),
  };
}

/** Settings are read to change them: the whole company's statements (`totalRewards` view for all). */
export function requireSettingsReader(caller: Caller): void {
  if (!hasPermission(caller.permissions, 'totalRewards', 'view', 'all')) {
    throw new HttpError(403, 'forbidden', { message: 'The communicate settings need the totalRewards permission for the whole company (view).' });
  }
}

export async function communicateSettings(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<CommunicateSettings> {
  const { db, caller } = ctx;
  requireSettingsReader(caller);
  return storedSettings(db, companyScope(caller));
}

// ── checking ─────────────────────────────────────────────────────────────────────────────

/** The banner's variables: what a statement knows of its employee and company. */
export const BANNER_VARIABLES = { firstName: 'text', lastName: 'text', tenure: 'text', companyName: 'text', jobTitle: 'text' } as const;
export type BannerValues = Record<keyof typeof BANNER_VARIABLES, string>;

/**
 * The banner is one line of the documents' template language, parsed the way a document's title is
 * (so a value can never add markup, and an unknown `{{variable}}` is refused when it is saved).
 */
function bannerTemplate(text: string) {
  return parseTemplate({ title: text, body: text });
}

function checkBanner(text: string, field: string, errors: FieldError[]): void {
  try {
    const problems = unofferedVariables(bannerTemplate(text), BANNER_VARIABLES);
    for (const problem of problems) errors.push({ field, message: problem.message });
  } catch (error) {
    if (!(error instanceof TemplateSyntaxError)) throw error;
    for (const problem of error.problems) if (problem.part === 'title') errors.push({ field, message: problem.message });
  }
}

/** The banner with one employee's values (checked when saved, so it renders). */
export function renderBanner(text: string, values: BannerValues): string {
  return renderTemplate(bannerTemplate(text), values).title;
}

const MAX_IMAGE_BYTES = 100_000;
const SIGNATURES: Record<string, (bytes: Buffer) => boolean> = {
  png: (bytes) => bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  jpeg: (bytes) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff,
  webp: (bytes) => bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP',
};

/** An uploaded image must be what it says it is, and small. */
function checkImage(value: string | null, field: string, errors: FieldError[]): void {
  if (value === null) return;
  const match = /^data:image\/(png|jpeg|webp);base64,(.*)$/.exec(value);
  if (!match) return; // the contract's pattern refused it already
  const bytes = Buffer.from(match[2] ?? '', 'base64');
  if (bytes.length > MAX_IMAGE_BYTES) errors.push({ field, message: `is ${Math.ceil(bytes.length / 1000)} KB; an image may be at most ${MAX_IMAGE_BYTES / 1000} KB` });
  else if (!SIGNATURES[match[1] ?? '']?.(bytes)) errors.push({ field, message: `is not a ${match[1]?.toUpperCase()} image` });
}

/** A PNG or JPEG logo's bytes from its data URL; null for no logo or another type. */
export function logoBytes(value: string | null): Buffer | null {
  const match = value ? /^data:image\/(png|jpeg);base64,(.*)$/.exec(value) : null;
  return match ? Buffer.from(match[2] ?? '', 'base64') : null;
}

/** The logo is drawn in letters' and statements' PDFs too, so it must be an image they can draw. */
function checkLogo(value: string | null, field: string, errors: FieldError[]): void {
  const before = errors.length;
  checkImage(value, field, errors);
  if (value === null || errors.length > before) return;
  const bytes = logoBytes(value);
  if (!bytes) return void errors.push({ field, message: 'must be a PNG or JPEG image: letters and statements draw the logo, and cannot draw WebP' });
  const image = readDocumentImage(bytes);
  if ('problem' in image) errors.push({ field, message: image.problem });
}

function duplicateIds(items: readonly { id: string }[], field: string, errors: FieldError[]): void {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (seen.has(item.id)) errors.push({ field: `${field}[${index}].id`, message: `${item.id} is used twice` });
    seen.add(item.id);
  });
}

const sortedMultiples = (multiples: readonly number[]): number[] => [...multiples].sort((a, b) => a - b);

/**
 * What the contract cannot say: the banner's template, images, a custom price when it is chosen,
 * ids unique, benefits naming groups that exist, amounts in current currencies. `prefix` is where the
 * draft sits in the request (`body`, `body.settings`).
 */
export async function checkDraft(db: Knex, current: CommunicateSettings, draft: SettingsDraft, prefix: string): Promise<void> {
  const errors: FieldError[] = [];
  if (draft.appearance) {
    checkBanner(draft.appearance.bannerText, `${prefix}.appearance.bannerText`, errors);
    checkLogo(draft.appearance.logo, `${prefix}.appearance.logo`, errors);
    checkImage(draft.appearance.bannerImage, `${prefix}.appearance.bannerImage`, errors);
  }
  const display = draft.equityDisplay;
  if (display?.price === 'custom') {
    const price = display.customPricePerShare;
    if (price === null) errors.push({ field: `${prefix}.equityDisplay.customPricePerShare`, message: 'is required when equity is valued at a custom price' });
    else if (Math.abs(price * 1e6 - Math.round(price * 1e6)) > 1e-6) errors.push({ field: `${prefix}.equityDisplay.customPricePerShare`, message: 'must have at most 6 decimals' });
  }
  if (draft.userGroups) duplicateIds(draft.userGroups, `${prefix}.userGroups`, errors);
  if (draft.learningHub) duplicateIds(draft.learningHub.articles, `${prefix}.learningHub.articles`, errors);
  const groups = new Set((draft.userGroups ?? current.userGroups).map((group) => group.id));
  if (draft.benefits) {
    duplicateIds(draft.benefits, `${prefix}.benefits`, errors);
    for (const [index, benefit] of draft.benefits.entries()) {
      for (const id of benefit.userGroupIds) if (!groups.has(id)) errors.push({ field: `${prefix}.benefits[${index}].userGroupIds`, message: `${id} is not a user group` });
      const value = benefit.annualValue;
      if (value) {
        if (value.amount < 0) errors.push({ field: `${prefix}.benefits[${index}].annualValue.amount`, message: 'must not be negative' });
        else if (value.amount > 1e15) errors.push({ field: `${prefix}.benefits[${index}].annualValue.amount`, message: 'is too large' });
        if ((await minorUnitOf(db, value.currency)) === undefined) errors.push({ field: `${prefix}.benefits[${index}].annualValue.currency`, message: `${value.currency} is not a current ISO 4217 currency` });
      }
    }
  } else if (draft.userGroups) {
    // Groups removed while stored benefits still name them.
    for (const benefit of current.benefits) {
      const missing = benefit.userGroupIds.filter((id) => !groups.has(id));
      if (missing.length) errors.push({ field: `${prefix}.userGroups`, message: `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} still given benefit “${benefit.name}”` });
    }
  }
  if (errors.length) throw badRequest(errors.map((error) => `${error.field} ${error.message}`).join('; '), errors);
}

// ── saving ───────────────────────────────────────────────────────────────────────────────

function columnsOf(draft: SettingsDraft): Partial<SettingsColumns> {
  const out: Partial<SettingsColumns> = {};
  if (draft.appearance) {
    const { logo, bannerImage, ...rest } = draft.appearance;
    out.appearance = JSON.stringify(rest);
    out.logo = logo;
    out.banner_image = bannerImage;
  }
  if (draft.sections) out.sections = JSON.stringify(draft.sections);
  if (draft.equityDisplay) out.equity_display = JSON.stringify(draft.equityDisplay);
  if (draft.futureModeling) out.future_modeling = JSON.stringify({ ...draft.futureModeling, multiples: sortedMultiples(draft.futureModeling.multiples) });
  if (draft.benefits) out.benefits = JSON.stringify(draft.benefits);
  if (draft.userGroups) out.user_groups = JSON.stringify(draft.userGroups);
  if (draft.learningHub) out.learning_hub = JSON.stringify(draft.learningHub);
  return out;
}

/** The parts a change names, for the audit trail (images are named, not copied). */
function changedParts(draft: SettingsDraft): string[] {
  return Object.keys(draft).flatMap((part) => (part === 'sections' && draft.sections ? Object.keys(draft.sections).map((name) => `sections.${name}`) : [part]));
}

const conflict = (current?: number): HttpError => versionConflict('the communicate settings', current);

/** Saves the parts sent at the version read (0: nothing stored yet); 409 when someone else saved first. */
export async function updateCommunicateSettings(ctx: Pick<ServiceContext, 'db' | 'caller'>, ifMatch: string, draft: SettingsDraft): Promise<CommunicateSettings> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  if (!hasPermission(caller.permissions, 'totalRewards', 'edit', 'all')) {
    throw new HttpError(403, 'forbidden', { message: 'Changing the communicate settings needs the totalRewards permission for the whole company (edit).' });
  }
  const version = versionOf(ifMatch);
  return db.transaction(async (trx) => {
    const row = await findSettingsRow(trx, scope);
    if ((row?.version ?? 0) !== version) throw conflict(row?.version ?? 0);
    const current = settingsOfRow(row);
    // A part equal to what is stored still counts as a save (the version moves): the person pressed save.
    await checkDraft(trx, current, draft, 'body');
    const now = new Date().toISOString();
    const columns = columnsOf(draft);
    // The logo is kept once by its content, so documents issued with it keep drawing it after it changes.
    const logo = logoBytes(draft.appearance?.logo ?? null);
    if (logo) await storeDocumentImage(trx, scope, logo);
    if (!row) {
      const fresh: CommunicateSettingsRow = {
        id: newId(),
        company_id: scope.companyId,
        appearance: null,
        logo: null,
        banner_image: null,
        sections: null,
        equity_display: null,
        future_modeling: null,
        benefits: null,
        user_groups: null,
        learning_hub: null,
        ...columns,
        version: 1,
        updated_by: caller.userId,
        created_at: now,
        updated_at: now,
      };
      if (!(await insertSettingsRow(trx, fresh))) throw conflict();
    } else if (!(await updateSettingsRow(trx, scope, version, { ...columns, updated_by: caller.userId, updated_at: now }))) {
      throw conflict();
    }
    await emit(trx, {
      companyId: scope.companyId,
      actorUserId: caller.userId,
      name: 'communicate_settings.updated',
      subjectType: 'communicate_settings',
      payload: { parts: changedParts(draft), version: version + 1 },
    });
    return storedSettings(trx, scope);
  });
}
