import type { components } from '../../../../openapi.d.ts';
import { useQuery } from '../../api/client';
import { formatDate, formatMoney, formatNumber } from '../../ui/format';
import './home.css';

type Schemas = components['schemas'];
type Component = Schemas['CompensationComponent'] | null;

const GRANT_TYPES: Record<Schemas['EquityGrantType'], string> = {
  option: 'Stock options',
  rsu: 'RSUs',
  rsa: 'Restricted stock',
  common_stock: 'Common stock',
};

function PayLine({ label, component }: { label: string; component: Component }) {
  if (!component) return null;
  const percent = component.percentOfBase === null ? '' : ` (${formatNumber(component.percentOfBase, 1)}% of base)`;
  return (
    <>
      <dt>{label}</dt>
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

/**
 * The signed-in person's own pay and equity, from their employee record. The service worker keeps
 * this one answer (and nobody else's) so the installed app shows it offline. People without an
 * employee record (404) see nothing here.
 */
export function OwnPay() {
  const { data } = useQuery('/api/employees/me', {});
  const record = data?.data;
  if (!record) return null;
  const pay = record.employee.compensation;
  return (
    <section className="card own-pay" aria-labelledby="own-pay-title">
      <h2 id="own-pay-title">Your pay</h2>
      <p className="lede">
        {record.employee.title}
        {pay ? ` · as of ${formatDate(pay.asOf)}` : ''}
      </p>
      {pay && (
        <dl data-testid="own-pay">
          <PayLine label="Base salary" component={pay.baseSalary} />
          <PayLine label="Bonus target" component={pay.bonusTarget} />
          <PayLine label="Variable pay" component={pay.variablePay} />
          <PayLine label="Commission" component={pay.commission} />
          <PayLine label="Benefits" component={pay.benefits} />
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
