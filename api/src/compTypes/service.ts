import { companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { badRequest } from '../kernel/errors.js';
import { versionConflict, versionOf, writeAtVersion } from '../kernel/versions.js';
import { emit } from '../platform/events.js';
import { COMP_TYPES, type StoredChoice, applyChoices } from './catalog.js';
import { compTypesOf } from './reads.js';
import { findSettings, insertSettings, parseChoices, settingsOf } from './store.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];

export async function getCompTypes(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<Schemas['CompTypeSettings']> {
  const { db, caller } = ctx;
  const types = await compTypesOf(db, companyScope(caller));
  return { version: types.version, types: [...types.all] };
}

/** Applies the changes named, at the version read; the types not named keep what they have. */
export async function updateCompTypes(ctx: Pick<ServiceContext, 'db' | 'caller'>, ifMatch: string, changes: Schemas['CompTypeInput'][]): Promise<Schemas['CompTypeSettings']> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  await db.transaction(async (trx) => {
    const stored = await findSettings(trx, scope);
    const current = stored ? Number(stored.version) : 0;
    if (current !== version) throw versionConflict('the compensation types', current);
    const choices: Record<string, StoredChoice> = stored ? parseChoices(stored.types) : {};
    const errors: { field: string; message: string }[] = [];
    const named = new Set<string>();
    changes.forEach((change, index) => {
      if (named.has(change.id)) errors.push({ field: `body.types.${index}.id`, message: 'is named twice' });
      named.add(change.id);
      const defaults = COMP_TYPES.find((type) => type.id === change.id);
      const choice: StoredChoice = { ...choices[change.id] };
      if (change.title !== undefined) {
        const title = change.title.trim().replace(/\s+/g, ' ');
        if (!title) errors.push({ field: `body.types.${index}.title`, message: 'must not be blank' });
        else if (title === defaults?.title) delete choice.title;
        else choice.title = title;
      }
      if (change.description !== undefined) {
        const description = change.description.trim();
        if (description === defaults?.description) delete choice.description;
        else choice.description = description;
      }
      if (change.isDisabled !== undefined) {
        if (change.id === 'base_salary' && change.isDisabled) errors.push({ field: `body.types.${index}.isDisabled`, message: 'base salary is always on' });
        if (change.isDisabled) choice.isDisabled = true;
        else delete choice.isDisabled;
      }
      choices[change.id] = choice;
    });
    const after = applyChoices(choices);
    changes.forEach((change, index) => {
      const type = after.find((candidate) => candidate.id === change.id);
      if (!type || change.title === undefined) return;
      const key = type.title.toLocaleLowerCase('en');
      const clash = after.find((other) => other.id !== type.id && other.title.toLocaleLowerCase('en') === key);
      if (clash) errors.push({ field: `body.types.${index}.title`, message: `"${type.title}" is already the title of another type` });
    });
    if (errors.length) throw badRequest('Some compensation types cannot be changed.', errors);
    const columns = { types: JSON.stringify(choices), updated_by: caller.userId, updated_at: new Date().toISOString() };
    if (!stored) await insertSettings(trx, { company_id: scope.companyId, ...columns, version: 1 });
    else if (!(await writeAtVersion(() => settingsOf(trx, scope), version, columns))) throw versionConflict('the compensation types', current + 1);
    await emit(trx, {
      name: 'compTypes.updated',
      companyId: scope.companyId,
      actorUserId: caller.userId,
      subjectType: 'compTypeSettings',
      payload: { version: version + 1, disabled: after.filter((type) => type.isDisabled).map((type) => type.id), renamed: after.filter((type) => type.title !== type.defaultTitle).map((type) => ({ id: type.id, title: type.title })) },
    });
  });
  return getCompTypes({ db, caller });
}
