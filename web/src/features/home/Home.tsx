import { usePerson } from '../../app/Guard';
import { homeTiles } from '../../app/registry';
import { OwnPay } from './OwnPay';
import './home.css';

/** What the company has and the person may use, with each module's own tile; the rest shows as not included. */
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
          const text = homeTiles.get(entry.module) ?? { title: entry.module, description: '' };
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
