import { Plus } from 'lucide-react';
import { useQuery } from '../../../api/client';
import { minorUnitOf } from '../../../ui/format';
import type { Schemas } from '../model';
import type { EditorProps } from './common';
import { ItemCard, SaveBar, newItemId, useDraft } from './draft';
import { SectionFields, validSection } from './editors';

// The communicate settings' list forms: benefits, user groups and learning articles.

type Benefit = Schemas['CommunicateBenefit'];
type UserGroup = Schemas['CommunicateUserGroup'];
type Article = Schemas['LearningArticle'];

const majorText = (money: Schemas['Money'] | null): string => (money ? String(money.amount / 10 ** minorUnitOf(money.currency)) : '');

export function BenefitsEditor({ settings, editable, onDraft }: EditorProps) {
  const currencies = useQuery('/api/currencies');
  const form = useDraft(settings.benefits, (value) => (value.every((benefit) => benefit.name.trim()) ? { benefits: value } : null), { settings, onDraft });
  const benefits = form.value;
  const update = (index: number, change: Partial<Benefit>) => form.setValue(benefits.map((benefit, at) => (at === index ? { ...benefit, ...change } : benefit)));
  const codes = currencies.data?.data.map((currency) => currency.code) ?? [];
  return (
    <form className="tr-form" aria-label="Benefits" onSubmit={(event) => void form.submit(event)}>
      {settings.userGroups.length === 0 && <p className="muted">No user groups yet: every benefit goes to everyone. Make groups under User groups to give a benefit to some people only.</p>}
      <ul className="tr-items">
        {benefits.map((benefit, index) => (
          <ItemCard key={benefit.id} title={benefit.name || 'New benefit'} removeLabel={`Remove ${benefit.name || 'this benefit'}`} disabled={!editable} onRemove={() => form.setValue(benefits.filter((_, at) => at !== index))}>
            <fieldset className="tr-fields" disabled={!editable}>
              <legend className="visually-hidden">{benefit.name || 'New benefit'}</legend>
              <label>
                Name
                <input value={benefit.name} maxLength={120} required onChange={(event) => update(index, { name: event.target.value })} />
              </label>
              <label>
                Description
                <textarea value={benefit.description} rows={2} maxLength={2000} onChange={(event) => update(index, { description: event.target.value })} />
              </label>
              <div className="tr-money-field">
                <label>
                  Worth a year
                  <input
                    type="number"
                    inputMode="decimal"
                    min={0}
                    step="any"
                    value={majorText(benefit.annualValue)}
                    placeholder="No figure"
                    onChange={(event) => {
                      const currency = benefit.annualValue?.currency ?? settings.benefits[0]?.annualValue?.currency ?? 'USD';
                      update(index, { annualValue: event.target.value === '' ? null : { amount: Math.round(Number(event.target.value) * 10 ** minorUnitOf(currency)), currency } });
                    }}
                  />
                </label>
                <label>
                  Currency
                  <select
                    value={benefit.annualValue?.currency ?? 'USD'}
                    disabled={!benefit.annualValue}
                    onChange={(event) => benefit.annualValue && update(index, { annualValue: { amount: Math.round((benefit.annualValue.amount / 10 ** minorUnitOf(benefit.annualValue.currency)) * 10 ** minorUnitOf(event.target.value)), currency: event.target.value } })}
                  >
                    {(codes.length ? codes : [benefit.annualValue?.currency ?? 'USD']).map((code) => (
                      <option key={code}>{code}</option>
                    ))}
                  </select>
                </label>
              </div>
              {settings.userGroups.length > 0 && (
                <fieldset className="tr-groups">
                  <legend>Who receives it (none ticked: everyone)</legend>
                  {settings.userGroups.map((group) => (
                    <label key={group.id} className="check">
                      <input
                        type="checkbox"
                        checked={benefit.userGroupIds.includes(group.id)}
                        onChange={(event) => update(index, { userGroupIds: event.target.checked ? [...benefit.userGroupIds, group.id] : benefit.userGroupIds.filter((id) => id !== group.id) })}
                      />
                      {group.name}
                    </label>
                  ))}
                </fieldset>
              )}
            </fieldset>
          </ItemCard>
        ))}
      </ul>
      {editable && (
        <button type="button" onClick={() => form.setValue([...benefits, { id: newItemId('benefit'), name: '', description: '', annualValue: null, userGroupIds: [] }])}>
          <Plus size={16} aria-hidden="true" /> Add a benefit
        </button>
      )}
      <SaveBar editable={editable} changed={form.changed} ready={form.draft !== null} busy={form.busy} reset={form.reset} />
    </form>
  );
}

const listOf = (text: string) =>
  [
    ...new Set(
      text
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  ];
const EMPLOYMENT_TYPES: { value: Schemas['CommunicateUserGroupRules']['employmentTypes'][number]; label: string }[] = [
  { value: 'full_time', label: 'Full time' },
  { value: 'part_time', label: 'Part time' },
  { value: 'contractor', label: 'Contractor' },
  { value: 'intern', label: 'Intern' },
];

/** Countries and departments are typed as lists ("DE, AT"); kept as typed until saved. */
interface GroupForm {
  group: UserGroup;
  countries: string;
  departments: string;
}

const toForm = (group: UserGroup): GroupForm => ({ group, countries: group.rules.countries.join(', '), departments: group.rules.departments.join(', ') });
const fromForm = (form: GroupForm): UserGroup => ({
  ...form.group,
  rules: { ...form.group.rules, countries: listOf(form.countries.toUpperCase()), departments: listOf(form.departments) },
});

export function UserGroupsEditor({ settings, editable, onDraft }: EditorProps) {
  const form = useDraft(
    settings.userGroups.map(toForm),
    (value) => {
      const groups = value.map(fromForm);
      const valid = groups.every((group) => group.name.trim() && group.rules.countries.every((code) => /^[A-Z]{2}$/.test(code)));
      return valid ? { userGroups: groups } : null;
    },
    { settings, onDraft },
  );
  const groups = form.value;
  const update = (index: number, change: Partial<GroupForm>) => form.setValue(groups.map((group, at) => (at === index ? { ...group, ...change } : group)));
  const usedBy = (id: string) => settings.benefits.filter((benefit) => benefit.userGroupIds.includes(id)).map((benefit) => benefit.name);
  return (
    <form className="tr-form" aria-label="User groups" onSubmit={(event) => void form.submit(event)}>
      <p className="muted">An employee is in a group when they match every rule that has values (any of the values of a rule). Benefits name the groups that receive them.</p>
      <ul className="tr-items">
        {groups.map((entry, index) => {
          const used = usedBy(entry.group.id);
          const badCountries = listOf(entry.countries.toUpperCase()).filter((code) => !/^[A-Z]{2}$/.test(code));
          return (
            <ItemCard
              key={entry.group.id}
              title={entry.group.name || 'New group'}
              removeLabel={`Remove ${entry.group.name || 'this group'}`}
              disabled={!editable || used.length > 0}
              onRemove={() => form.setValue(groups.filter((_, at) => at !== index))}
            >
              <fieldset className="tr-fields" disabled={!editable}>
                <legend className="visually-hidden">{entry.group.name || 'New group'}</legend>
                <label>
                  Name
                  <input value={entry.group.name} maxLength={120} required onChange={(event) => update(index, { group: { ...entry.group, name: event.target.value } })} />
                </label>
                <label>
                  Countries (ISO codes, comma-separated; empty: any)
                  <input value={entry.countries} placeholder="e.g. DE, AT" aria-invalid={badCountries.length > 0} onChange={(event) => update(index, { countries: event.target.value })} />
                </label>
                {badCountries.length > 0 && <p className="danger-text small-text">{badCountries.join(', ')}: a country is two letters, e.g. DE.</p>}
                <label>
                  Departments (comma-separated; empty: any)
                  <input value={entry.departments} placeholder="e.g. Sales, Support" onChange={(event) => update(index, { departments: event.target.value })} />
                </label>
                <fieldset className="tr-groups">
                  <legend>Employment types (none ticked: any)</legend>
                  {EMPLOYMENT_TYPES.map((type) => (
                    <label key={type.value} className="check">
                      <input
                        type="checkbox"
                        checked={entry.group.rules.employmentTypes.includes(type.value)}
                        onChange={(event) =>
                          update(index, {
                            group: {
                              ...entry.group,
                              rules: { ...entry.group.rules, employmentTypes: event.target.checked ? [...entry.group.rules.employmentTypes, type.value] : entry.group.rules.employmentTypes.filter((value) => value !== type.value) },
                            },
                          })
                        }
                      />
                      {type.label}
                    </label>
                  ))}
                </fieldset>
              </fieldset>
              {used.length > 0 && <p className="muted small-text">Receives {used.join(', ')}: take it off those benefits to remove the group.</p>}
            </ItemCard>
          );
        })}
      </ul>
      {editable && (
        <button type="button" onClick={() => form.setValue([...groups, toForm({ id: newItemId('group'), name: '', rules: { countries: [], departments: [], employmentTypes: [] } })])}>
          <Plus size={16} aria-hidden="true" /> Add a user group
        </button>
      )}
      <SaveBar editable={editable} changed={form.changed} ready={form.draft !== null} busy={form.busy} reset={form.reset} />
    </form>
  );
}

// ── the learning hub ──────────────────────────────────────────────────────────────────────

const TOPICS: { value: Article['topic']; label: string }[] = [
  { value: 'options', label: 'Stock options' },
  { value: 'rsus', label: 'RSUs' },
  { value: 'cliff', label: 'The cliff' },
  { value: 'vesting', label: 'Vesting' },
  { value: 'liquidity', label: 'Liquidity' },
  { value: 'other', label: 'Other' },
];

export function ArticlesEditor({ settings, editable, onDraft }: EditorProps) {
  const initial = { section: settings.sections.learningHub, articles: settings.learningHub.articles };
  const form = useDraft(
    initial,
    (value) => (validSection(value.section) && value.articles.every((article) => article.title.trim() && article.body.trim()) ? { sections: { learningHub: value.section }, learningHub: { articles: value.articles } } : null),
    { settings, onDraft },
  );
  const articles = form.value.articles;
  const setArticles = (next: Article[]) => form.setValue({ ...form.value, articles: next });
  const update = (index: number, change: Partial<Article>) => setArticles(articles.map((article, at) => (at === index ? { ...article, ...change } : article)));
  const move = (index: number, by: number) => {
    const next = [...articles];
    const [item] = next.splice(index, 1);
    if (item) next.splice(index + by, 0, item);
    setArticles(next);
  };
  return (
    <form className="tr-form" aria-label="Learning hub" onSubmit={(event) => void form.submit(event)}>
      <SectionFields value={form.value.section} onChange={(section) => form.setValue({ ...form.value, section })} disabled={!editable} />
      <h2 className="tr-form-heading">Articles</h2>
      <ul className="tr-items">
        {articles.map((article, index) => (
          <ItemCard key={article.id} title={article.title || 'New article'} removeLabel={`Remove ${article.title || 'this article'}`} disabled={!editable} onRemove={() => setArticles(articles.filter((_, at) => at !== index))}>
            <fieldset className="tr-fields" disabled={!editable}>
              <legend className="visually-hidden">{article.title || 'New article'}</legend>
              <label>
                Topic
                <select value={article.topic} onChange={(event) => update(index, { topic: event.target.value as Article['topic'] })}>
                  {TOPICS.map((topic) => (
                    <option key={topic.value} value={topic.value}>
                      {topic.label}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                Title
                <input value={article.title} maxLength={200} required onChange={(event) => update(index, { title: event.target.value })} />
              </label>
              <label>
                Summary
                <input value={article.summary} maxLength={500} onChange={(event) => update(index, { summary: event.target.value })} />
              </label>
              <label>
                Text
                <textarea value={article.body} rows={6} maxLength={20000} required onChange={(event) => update(index, { body: event.target.value })} />
              </label>
              <div className="tr-moves">
                <button type="button" className="small" disabled={index === 0} onClick={() => move(index, -1)} aria-label={`Move ${article.title || 'this article'} up`}>
                  ↑ Up
                </button>
                <button type="button" className="small" disabled={index === articles.length - 1} onClick={() => move(index, 1)} aria-label={`Move ${article.title || 'this article'} down`}>
                  ↓ Down
                </button>
              </div>
            </fieldset>
          </ItemCard>
        ))}
      </ul>
      {editable && (
        <button type="button" onClick={() => setArticles([...articles, { id: newItemId('article'), topic: 'other', title: '', summary: '', body: '' }])}>
          <Plus size={16} aria-hidden="true" /> Add an article
        </button>
      )}
      <SaveBar editable={editable} changed={form.changed} ready={form.draft !== null} busy={form.busy} reset={form.reset} />
    </form>
  );
}
