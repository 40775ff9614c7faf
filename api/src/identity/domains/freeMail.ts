/**
 * Domains anyone can have an address at: no company owns them, so none may be proven by a company
 * (to route its sign-in, or to stand for it as a market participant).
 */
export const FREE_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com', 'googlemail.com', 'outlook.com', 'hotmail.com', 'hotmail.co.uk', 'live.com', 'msn.com', 'yahoo.com', 'yahoo.co.uk',
  'ymail.com', 'icloud.com', 'me.com', 'mac.com', 'aol.com', 'proton.me', 'protonmail.com', 'pm.me', 'gmx.com', 'gmx.de', 'gmx.net',
  'web.de', 'mail.com', 'yandex.com', 'yandex.ru', 'zoho.com', 'fastmail.com', 'hey.com', 'qq.com', '163.com', '126.com',
  'tutanota.com', 'mail.ru', 'orange.fr', 'free.fr', 'laposte.net', 't-online.de', 'libero.it', 'seznam.cz', 'naver.com',
]);

export const isFreeMail = (domain: string): boolean => FREE_MAIL_DOMAINS.has(domain);
