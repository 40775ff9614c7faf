import type { components } from '../../../../openapi.d.ts';
import { statusOf, useQuery } from '../../api/client';
import { type ColourGroup, StackedBar, colourOf } from '../../ui/charts';
import { formatDate, formatMoney, formatNumber, majorOf } from '../../ui/format';
import { SkeletonStats } from '../../ui/Skeleton';
import { StatCard, StatGrid } from '../../ui/StatCard';
import './home.css';

type Schemas = components['schemas'];
type Component = Schemas['CompensationComponent'] | null;
type Money = Schemas['Money'];

const GRANT_TYPES: Record<Schemas['EquityGrantType'], string> = {
  option: 'Stock options',
  rsu: 'RSUs',
  rsa: 'Restricted stock',
  common_stock: 'Common stock',
};

/** The cash parts of a package, each in its compensation colour group. */
const CASH_PARTS: { key: keyof Pick<Schemas['CurrentCompensation'], 'baseSalary' | 'bonusTarget' | 'variablePay' | 'commission' | 'benefits'>; label: string; group: ColourGroup }[] = [
  { key: 'baseSalary', label: 'Base salary', group: 'base' },
  { key: 'bonusTarget', label: 'Bonus target', group: 'annualBonus' },
  { key: 'variablePay', label: 'Variable pay', group: 'variable' },
  { key: 'commission', label: 'Commission', group: 'performance' },
  { key: 'benefits', label: 'Benefits', group: 'benefits' },
];

function PayLine({ label, component, swatch }: { label: string; component: Component; swatch?: string }) {
  if (!component) return null;
  const percent = component.percentOfBase === null ? '' : ` (${formatNumber(component.percentOfBase, 1)}% of base)`;
  return (
    <>
      <dt>
        {swatch && <span className="swatch" style={{ background: swatch }} aria-hidden="true" />}
        {label}
      </dt>
      <dd>
        {formatMoney(component.amount)}
        {percent}
      </dd>
    </>
  );
}

function Grant({ grant }: { grant: Schemas['EquityGrant'] }) {
  const { vesting } = grant;
  return (
    <li>
      <strong>
        {formatNumber(grant.shares)} {GRANT_TYPES[grant.grantType]}
      </strong>{' '}
      granted {formatDate(grant.grantDate)}
      <br />
      {formatNumber(vesting.vestedShares)} vested ({formatNumber(vesting.vestedPercent, 0)}%)
      {vesting.nextVestingDate ? `, next on ${formatDate(vesting.nextVestingDate)}` : ''}
      {vesting.value && (
        <>
          <br />
          Worth {formatMoney(vesting.value.vested)} vested and {formatMoney(vesting.value.unvested)} unvested at today’s share price
        </>
      )}
      {vesting.isUnderwater && <> — the exercise price is above today’s share price</>}
    </li>
  );
}

/** The sum of same-currency amounts (equity values are all in the company currency). */
function total(amounts: Money[]): Money | null {
  const first = amounts[0];
  if (!first || amounts.some((money) => money.currency !== first.currency)) return null;
  return { amount: amounts.reduce((sum, money) => sum + money.amount, 0), currency: first.currency };
}

/**
 * The signed-in person's own pay and equity, from their employee record: the figures that matter
 * first (base, total cash, equity), the cash mix in the compensation colours, then every line. The
 * service worker keeps this one answer (and nobody else's) so the installed app shows it offline.
 * People without an employee record (404) see nothing here.
 */
export function OwnPay({ prominent = false }: { prominent?: boolean }) {
  const { data, error } = useQuery('/api/employees/me', {});
  const record = data?.data;
  if (error && statusOf(error) === 404) return null;
  if (!record) return error || !prominent ? null : <SkeletonStats count={3} label="Loading your pay" />;
  const pay = record.employee.compensation;
  const values = record.equityGrants.map((grant) => grant.vesting.value).filter((value) => value !== null);
  const vested = total(values.map((value) => value.vested));
  const unvested = total(values.map((value) => value.unvested));
  const parts = pay ? CASH_PARTS.filter((part) => pay[part.key]) : [];
  return (
    <section className={prominent ? 'section-card own-pay prominent' : 'section-card own-pay'} aria-labelledby="own-pay-title">
      <header className="section-head">
        <h2 id="own-pay-title">Your pay</h2>
        <span className="muted small-text">
          {record.employee.title}
          {pay ? ` · as of ${formatDate(pay.asOf)}` : ''}
        </span>
      </header>
      {pay && (
        <StatGrid label="Your pay at a glance">
          {pay.baseSalary && <StatCard label="Base salary" value={formatMoney(pay.baseSalary.amount)} hint="A year, before tax" swatch={colourOf('base')} />}
          {pay.totalCash && <StatCard label="Total cash" value={formatMoney(pay.totalCash)} hint="Base with bonus targets, variable pay and commission" swatch={colourOf('total_cash')} />}
          {vested && (
            <StatCard
              label="Equity vested"
              value={formatMoney(vested, { compact: true })}
              hint={unvested ? `${formatMoney(unvested, { compact: true })} still to vest, at today’s share price` : 'At today’s share price'}
              swatch={colourOf(record.equityGrants[0] ? ({ option: 'option', rsu: 'rsu', rsa: 'rsa', common_stock: 'commonStock' } as const)[record.equityGrants[0].grantType] : 'future.equity')}
            />
          )}
        </StatGrid>
      )}
      {prominent && parts.length > 1 && pay && (
        <StackedBar
          title={`Your cash pay mix, a year, in ${pay.currency}`}
          bars={parts.map((part) => ({ label: part.label, value: majorOf((pay[part.key] as NonNullable<Component>).amount), colour: colourOf(part.group) }))}
          categoryLabel="Pay"
          valueLabel="A year"
          unit={{ kind: 'money', currency: pay.currency }}
          describedBy="own-pay-lines"
        />
      )}
      {pay && (
        <dl data-testid="own-pay" id="own-pay-lines" className={prominent ? 'pay-lines keyed' : 'pay-lines'}>
          {CASH_PARTS.map((part) => (
            <PayLine key={part.key} label={part.label} component={pay[part.key]} swatch={prominent && parts.length > 1 ? colourOf(part.group) : undefined} />
          ))}
          {pay.totalCash && (
            <>
              <dt>Total cash</dt>
              <dd>{formatMoney(pay.totalCash)}</dd>
            </>
          )}
        </dl>
      )}
      {record.equityGrants.length > 0 && (
        <>
          <h3>Equity</h3>
          <ul className="own-grants">
            {record.equityGrants.map((grant) => (
              <Grant key={grant.id} grant={grant} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
