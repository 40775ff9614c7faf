import { usePerson } from '../../app/Guard';
import { OwnPay } from './OwnPay';

const MODULE_TITLES: Record<string, { title: string; description: string }> = {
  benchmarking: { title: 'Market data', description: 'Benchmark roles against the market by family, level and location.' },
  integrations: { title: 'Integrations', description: 'Connect your HR and equity systems.' },
  settings: { title: 'Settings', description: 'Company settings, users and roles.' },
  compplanning: { title: 'Compensation planning', description: 'Merit cycles, budgets and approvals.' },
  rewardLetters: { title: 'Reward letters', description: 'Letters for every employee at the end of a cycle.' },
  teamview: { title: 'Team', description: 'Your employees, their pay and how it compares.' },
  bands: { title: 'Salary bands', description: 'Bands, grades, pay zones and surveys.' },
  visualOfferLetter: { title: 'Offers', description: 'Visual offer letters for candidates.' },
  totalRewards: { title: 'Total rewards', description: 'Statements of everything employees receive.' },
};

/** What the company has and the person may use; the rest shows as not included. */
export function Home() {
  const person = usePerson().data?.data;
  if (!person) return null;
  const modules = person.modules;
  return (
    <>
      <h1>Welcome, {person.firstName || person.email}</h1>
      <p className="lede">Your roles: {person.companyRolesV2.map((role) => role.name).join(', ') || 'none yet'}</p>
      {!person.isCandidate && <OwnPay />}
      <ul className="modules" aria-label="Modules">
        {modules.map((entry) => {
          const text = MODULE_TITLES[entry.module] ?? { title: entry.module, description: '' };
          const state = entry.authorized ? 'Available' : entry.available ? 'Not included in your role' : 'Not switched on for your company';
          return (
            <li key={entry.module} className={entry.authorized ? 'module on' : 'module off'} data-module={entry.module}>
              <h2>{text.title}</h2>
              <p>{text.description}</p>
              <p className="module-state">{state}</p>
            </li>
          );
        })}
      </ul>
    </>
  );
}
