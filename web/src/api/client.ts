import createClient, { type Middleware } from 'openapi-fetch';
import { createQueryHook } from 'swr-openapi';
import type { paths } from '../../../openapi.d.ts';
import { COMPANY_AS_KEY, SESSION_EXPIRED_REASON, VIEW_AS_KEY, accessToken } from '../auth/oidc';

/** The one typed client of the contract; every screen reaches the API through it. */
export const api = createClient<paths>({ baseUrl: '/' });

let leaving = false;

const auth: Middleware = {
  async onRequest({ request }) {
    const token = await accessToken();
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    const viewAs = localStorage.getItem(VIEW_AS_KEY);
    const companyAs = localStorage.getItem(COMPANY_AS_KEY);
    if (viewAs) request.headers.set('X-Paybench-View-As', viewAs);
    if (companyAs) request.headers.set('X-Paybench-Company-As', companyAs);
    return request;
  },
  async onResponse({ response }) {
    // A refused session sends the person to /logout, keeping the reason to show on sign-in.
    if (response.status === 401 && window.location.pathname !== '/logout' && !leaving) {
      leaving = true; // several requests may be refused at once; leave once
      const body = (await response.clone().json().catch(() => ({}))) as { clientResponse?: { message?: string } };
      const reason = body.clientResponse?.message ?? 'expired';
      localStorage.setItem(SESSION_EXPIRED_REASON, reason);
      window.location.assign(`/logout?reason=${encodeURIComponent(reason)}`);
    }
    return response;
  },
};
api.use(auth);

export const useQuery = createQueryHook(api, 'paybench');
