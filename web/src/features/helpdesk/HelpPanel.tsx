import { createPortal } from 'react-dom';
import { Link } from 'wouter';
import { Sheet } from '../../ui/Modal';
import type { HelpDeskIdentity } from './provider';
import './helpdesk.css';

/** Where people find help inside the product: pages this deployment serves itself. */
const GUIDES: { href: string; label: string; description: string; inApp: boolean }[] = [
  { href: '/onboarding', label: 'Getting started', description: 'Your set-up steps and, for admins, the company’s.', inApp: true },
  { href: '/legal/terms.html', label: 'Terms of use', description: 'What you agreed to when you started using Paybench.', inApp: false },
  { href: '/legal/msa.html', label: 'Subscription agreement', description: 'The agreement between your company and Paybench.', inApp: false },
];

/**
 * The product's own help panel: guides, and who to contact. Drawn at the end of the page: inside
 * the side menu's stacking context the screen's own content would paint over it.
 */
export function HelpPanel({ identity, onClose }: { identity: HelpDeskIdentity; onClose: () => void }) {
  return createPortal(
    <Sheet title="Help" onClose={onClose} className="help-panel">
      <section aria-labelledby="help-guides">
        <h3 id="help-guides">Guides</h3>
        <ul className="help-links">
          {GUIDES.map((guide) => (
            <li key={guide.href}>
              {guide.inApp ? (
                <Link href={guide.href} onClick={onClose}>
                  {guide.label}
                </Link>
              ) : (
                <a href={guide.href} target="_blank" rel="noreferrer">
                  {guide.label}
                </a>
              )}
              <span className="muted">{guide.description}</span>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="help-contact">
        <h3 id="help-contact">Who can help</h3>
        <p>For access to a module or questions about your company’s data, contact your company admin.</p>
        <p className="muted">Signed in as {identity.name === identity.email ? identity.email : `${identity.name} (${identity.email})`}.</p>
      </section>
    </Sheet>,
    document.body,
  );
}
