import { useState } from 'react';
import { api } from '../api/client';
import { forgetAllAnswers } from '../api/queries';
import { COMPANY_AS_KEY, VIEW_AS_KEY } from '../auth/oidc';
import { usePerson } from './Guard';

/**
 * While an internal admin views as a user or a company, every screen sits inside this frame
 * (layer impersonationFrame, 1800): a border around the viewport that nothing can cover, and a
 * banner saying whose eyes these are, with the way back.
 */
export function ImpersonationFrame() {
  const person = usePerson().data?.data;
  const [ending, setEnding] = useState(false);
  if (!person?.viewAs) return null;
  const viewAs = person.viewAs;
  async function stopViewing() {
    setEnding(true);
    // The headers go first: while they are sent every write (ending the session too) is refused.
    localStorage.removeItem(VIEW_AS_KEY);
    localStorage.removeItem(COMPANY_AS_KEY);
    await api.POST('/api/v2/view-as-sessions/{sessionId}/end', { params: { path: { sessionId: viewAs.sessionId } } }).catch(() => undefined);
    await forgetAllAnswers({ refetch: false });
    window.location.assign('/internal');
  }
  return (
    <>
      <div className="impersonation-frame" aria-hidden="true" data-testid="impersonation-frame" />
      <div className="impersonation-banner" role="status">
        <span>
          Viewing as {viewAs.mode === 'user' ? `${person.firstName} ${person.lastName} (${person.email})` : 'the company'} · read-only · you are {viewAs.adminEmail}
        </span>
        <button type="button" onClick={() => void stopViewing()} disabled={ending}>
          Stop viewing
        </button>
      </div>
    </>
  );
}
