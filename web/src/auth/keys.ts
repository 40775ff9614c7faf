/** Where the client keeps what outlives a page, in local storage. */
export const SESSION_EXPIRED_REASON = 'paybench.sessionExpiredReason';
export const VIEW_AS_KEY = 'paybench.viewAs';
export const COMPANY_AS_KEY = 'paybench.companyAs';
