import type { Knex } from 'knex';
import { type CompanyScope, companyScope } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import { parsePermissions, rolesOfUsers } from '../access/store.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { badRequest, type FieldError } from '../kernel/errors.js';
import { updateAtVersion, versionConflict, versionOf } from '../kernel/versions.js';
import { findLocation } from '../reference/catalog/index.js';
import { findApprovalSettings, insertApprovalSettings, userNames } from './store.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];

/* Who approves an out-of-range offer: rules by department, then location, then a default. */

export interface StoredRule {
  id: string;
  department: string | null;
  locationId: string | null;
  mode: 'ordered' | 'quorum';
  approverUserIds: string[];
  requiredApprovals: number;
}

export interface StoredDecision {
  userId: string;
  decision: 'approved' | 'rejected';
  at: string;
}

/** The route an offer version waits on: the rule as it was when submitted, and the decisions so far. */
export interface StoredApproval extends StoredRule {
  decisions: StoredDecision[];
}

const parseRules = (text: string | undefined): StoredRule[] => (text ? (JSON.parse(text) as StoredRule[]) : []);

async function rulesOf(db: Knex, scope: CompanyScope): Promise<{ rules: StoredRule[]; version: number }> {
  const row = await findApprovalSettings(db, scope);
  return { rules: parseRules(row?.rules), version: row?.version ?? 0 };
}

const sameText = (a: string | null, b: string | null): boolean => a !== null && b !== null && a.trim().toLowerCase() === b.trim().toLowerCase();

/** The rule for an offer: its department's, else its location's, else the default; none = no approval. */
export async function matchingRule(db: Knex, scope: CompanyScope, offer: { department: string | null; locationId: string }): Promise<StoredRule | null> {
  const { rules } = await rulesOf(db, scope);
  return (
    rules.find((rule) => rule.department !== null && sameText(rule.department, offer.department)) ??
    rules.find((rule) => rule.department === null && rule.locationId !== null && rule.locationId === offer.locationId) ??
    rules.find((rule) => rule.department === null && rule.locationId === null) ??
    null
  );
}

export const approvalsNeeded = (approval: StoredRule): number => (approval.mode === 'ordered' ? approval.approverUserIds.length : Math.min(approval.requiredApprovals, approval.approverUserIds.length));

/** The approvers the offer waits for now: the next in order, or every one who has not approved yet. */
export function awaitedApprovers(approval: StoredApproval | null): string[] {
  if (!approval) return [];
  const approved = approval.decisions.filter((decision) => decision.decision === 'approved').map((decision) => decision.userId);
  if (approved.length >= approvalsNeeded(approval)) return [];
  if (approval.mode === 'ordered') {
    const next = approval.approverUserIds[approved.length];
    return next ? [next] : [];
  }
  return approval.approverUserIds.filter((id) => !approved.includes(id));
}

export async function presentRoute(db: Knex, scope: CompanyScope, approval: StoredApproval | StoredRule): Promise<Schemas['OfferApprovalRoute']> {
  const names = await userNames(db, scope, approval.approverUserIds);
  const decisions = 'decisions' in approval ? approval.decisions : [];
  return {
    ruleId: approval.id,
    mode: approval.mode,
    requiredApprovals: approvalsNeeded(approval),
    approvers: approval.approverUserIds.map((userId) => {
      const decided = decisions.filter((decision) => decision.userId === userId).at(-1);
      return { userId, name: names.get(userId) || null, decision: decided?.decision ?? null, decidedAt: decided?.at ?? null };
    }),
  };
}

export async function approvalRouteFor(db: Knex, scope: CompanyScope, offer: { department: string | null; locationId: string }): Promise<Schemas['OfferApprovalRoute'] | null> {
  const rule = await matchingRule(db, scope, offer);
  return rule ? presentRoute(db, scope, rule) : null;
}

async function presentSettings(db: Knex, scope: CompanyScope, rules: StoredRule[], version: number): Promise<Schemas['OfferApprovalSettings']> {
  const names = await userNames(db, scope, rules.flatMap((rule) => rule.approverUserIds));
  return {
    version,
    rules: rules.map((rule) => ({
      id: rule.id,
      department: rule.department,
      locationId: rule.locationId,
      mode: rule.mode,
      requiredApprovals: approvalsNeeded(rule),
      approvers: rule.approverUserIds.map((userId) => ({ userId, name: names.get(userId) || null })),
    })),
  };
}

export async function getApprovalSettings(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<Schemas['OfferApprovalSettings']> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const { rules, version } = await rulesOf(db, scope);
  return presentSettings(db, scope, rules, version);
}

export async function updateApprovalSettings(ctx: Pick<ServiceContext, 'db' | 'caller'>, ifMatch: string, input: Schemas['OfferApprovalSettingsInput']): Promise<Schemas['OfferApprovalSettings']> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  const errors: FieldError[] = [];
  const approverIds = [...new Set(input.rules.flatMap((rule) => rule.approverUserIds))];
  const names = await userNames(db, scope, approverIds);
  const roles = await rolesOfUsers(db, scope, approverIds);
  const seesOffers = (userId: string) => (roles.get(userId) ?? []).some((role) => hasPermission(parsePermissions(role), 'offers', 'view', undefined));
  const seenScopes = new Set<string>();
  const rules: StoredRule[] = input.rules.map((rule, index) => {
    const field = `body.rules.${index}`;
    const department = rule.department?.trim() || null;
    const locationId = rule.locationId ?? null;
    if (department !== null && locationId !== null) errors.push({ field, message: 'a rule names a department or a location, not both' });
    if (locationId !== null && !findLocation(locationId)) errors.push({ field: `${field}.locationId`, message: `${locationId} is not a location of the market catalog` });
    const key = department !== null ? `d:${department.toLowerCase()}` : locationId !== null ? `l:${locationId}` : 'default';
    if (seenScopes.has(key)) errors.push({ field, message: department !== null ? `another rule already names the department ${department}` : locationId !== null ? `another rule already names ${locationId}` : 'there is already a default rule' });
    seenScopes.add(key);
    rule.approverUserIds.forEach((userId, at) => {
      if (!names.has(userId)) errors.push({ field: `${field}.approverUserIds.${at}`, message: `${userId} is not a user of this company` });
      else if (!seesOffers(userId)) errors.push({ field: `${field}.approverUserIds.${at}`, message: `${names.get(userId) || userId} cannot see offers (the offers permission)` });
    });
    if (new Set(rule.approverUserIds).size !== rule.approverUserIds.length) errors.push({ field: `${field}.approverUserIds`, message: 'names an approver twice' });
    const required = rule.mode === 'ordered' ? rule.approverUserIds.length : (rule.requiredApprovals ?? rule.approverUserIds.length);
    if (required > rule.approverUserIds.length) errors.push({ field: `${field}.requiredApprovals`, message: `must be at most the ${rule.approverUserIds.length} approvers named` });
    return { id: rule.id?.trim() || newId(), department, locationId, mode: rule.mode, approverUserIds: rule.approverUserIds, requiredApprovals: required };
  });
  if (errors.length) throw badRequest(errors[0]?.message ?? 'The approval rules are not valid', errors);
  const now = new Date().toISOString();
  const stored = await db.transaction(async (trx) => {
    const current = await findApprovalSettings(trx, scope);
    if ((current?.version ?? 0) !== version) throw versionConflict('the offer approval settings', current?.version ?? 0);
    if (!current) {
      await insertApprovalSettings(trx, { company_id: scope.companyId, rules: JSON.stringify(rules), version: 1, updated_by: caller.userId, updated_at: now });
      return 1;
    }
    return updateAtVersion(() => trx('offer_approval_settings').where({ company_id: scope.companyId }), version, { rules: JSON.stringify(rules), updated_by: caller.userId, updated_at: now }, 'the offer approval settings');
  });
  return presentSettings(db, scope, rules, stored);
}
