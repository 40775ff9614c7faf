import { LifeBuoy } from 'lucide-react';
import { useEffect, useReducer, useSyncExternalStore } from 'react';
import { useLocation } from 'wouter';
import { api, errorMessage } from '../../api/client';
import { useCompanyFlag } from '../../api/company';
import { reportClientError } from '../../api/errorReporting';
import { usePerson } from '../../app/Guard';
import type { NavWidgetProps } from '../../app/webModule';
import { useSession } from '../../auth/Session';
import { Tooltip } from '../../ui/Tooltip';
import { INITIAL_STATE, helpDeskReducer, launcherVisible, shouldBoot } from './machine';
import { HelpPanel } from './HelpPanel';
import { type HelpDeskIdentity, builtInHelpDesk } from './provider';
import { TOKEN_ATTEMPTS, withRetries } from './retry';

const provider = builtInHelpDesk;

/** The identity token from the API; a failed call throws (and is tried again by `withRetries`). */
async function fetchToken(): Promise<string> {
  const { data, error } = await api.GET('/api/help-desk/token');
  if (!data) throw new Error(errorMessage(error, 'The help-desk token could not be fetched'));
  return data.data.jwt;
}

/**
 * The help desk's launcher in the side menu (the phone's top bar, so it never covers the tab bar)
 * and its panel. Booted, shut down, hidden and disabled as `machine.ts` says; the token is asked
 * up to 5 times 1 s apart and a final failure is reported.
 */
export function HelpDesk({ compact }: NavWidgetProps) {
  const { user } = useSession();
  const person = usePerson().data?.data;
  const flagOn = useCompanyFlag('help_desk', Boolean(user && person?.companyId && !person.isCandidate));
  const [location] = useLocation();
  const [state, dispatch] = useReducer(helpDeskReducer, INITIAL_STATE);
  const panel = useSyncExternalStore(provider.subscribe, provider.getSnapshot);

  const eligible = shouldBoot({
    flagOn,
    signedIn: Boolean(user && person),
    hasCompany: Boolean(person?.companyId),
    viewingAs: Boolean(person?.viewAs),
    path: location,
  });
  useEffect(() => dispatch({ type: 'conditions', eligible }), [eligible]);

  // Booting: the token, then the provider is handed the person.
  const booting = state.phase === 'booting';
  useEffect(() => {
    if (!booting || !person?.companyId) return;
    let cancelled = false;
    const identity = { email: person.email, name: [person.firstName, person.lastName].filter(Boolean).join(' ') || person.email, companyId: person.companyId };
    withRetries(fetchToken, { cancelled: () => cancelled })
      .then((jwt) => {
        if (cancelled) return;
        provider.boot({ jwt, ...identity } satisfies HelpDeskIdentity);
        dispatch({ type: 'token-received' });
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        reportClientError(new Error(`Help desk: the identity token failed ${TOKEN_ATTEMPTS} times (${errorMessage(error)})`));
        dispatch({ type: 'token-failed' });
      });
    return () => {
      cancelled = true;
    };
  }, [booting, person?.companyId, person?.email, person?.firstName, person?.lastName]);

  // Anything but booted: the provider forgets the person; and when the frame goes (signing out).
  const booted = state.phase === 'booted';
  useEffect(() => {
    if (!booted) provider.shutdown();
  }, [booted]);
  useEffect(() => () => provider.shutdown(), []);

  useEffect(() => {
    if (state.open) provider.show();
    else provider.hide();
  }, [state.open]);

  if (!launcherVisible(state)) return null;
  const button = (
    <button type="button" className="nav-link" aria-haspopup="dialog" aria-expanded={state.open} onClick={() => dispatch({ type: 'show' })}>
      <LifeBuoy size={20} aria-hidden="true" />
      <span className={compact ? 'visually-hidden' : 'nav-label'}>Help</span>
    </button>
  );
  return (
    <>
      {compact ? (
        <Tooltip content="Help" side="bottom">
          {button}
        </Tooltip>
      ) : (
        button
      )}
      {panel.open && panel.identity && <HelpPanel identity={panel.identity} onClose={() => dispatch({ type: 'close' })} />}
    </>
  );
}
