import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
// Server-rendered sign-in pages: no scripts, no external assets, styled like the product (its mark,
// its Inter font from the web build, its colours from web/src/ui/tokens.css).

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);

const CSS = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;padding:24px 16px;
font-family:Inter,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:16px;line-height:1.5;
color:#1f2a44;background:#f4f6fa}
main{width:100%;max-width:420px}
.brand{display:flex;align-items:center;gap:10px;margin:8px 0 24px;font-weight:700;font-size:1.25rem;letter-spacing:-.01em}
.brand-mark{display:block;width:32px;height:32px}
.card{background:#fff;border:1px solid #e1e5ef;border-radius:12px;padding:24px;box-shadow:0 1px 2px rgba(31,42,68,.06),0 8px 24px rgba(31,42,68,.06)}
h1{margin:0 0 8px;font-size:1.5rem;line-height:1.25;letter-spacing:-.01em}
p{margin:0 0 16px}
.lead{color:#525b70}
.field{margin:0 0 16px}
label{display:block;margin:0 0 6px;font-weight:600}
.hint{margin:0 0 6px;color:#525b70;font-size:.875rem}
input[type=email],input[type=password],input[type=text]{display:block;width:100%;min-height:44px;padding:10px 12px;
font:inherit;color:inherit;background:#fff;border:1px solid #b9c2d4;border-radius:8px}
input[aria-invalid=true]{border-color:#c92a2a}
input:focus-visible{outline:3px solid rgba(59,91,219,.4);outline-offset:1px;border-color:#3b5bdb}
.field-error{margin:6px 0 0;color:#c92a2a;font-size:.875rem}
.alert{margin:0 0 16px;padding:12px 14px;border-radius:8px;background:#fff5f5;border:1px solid #ffc9c9;color:#8a1c1c}
.alert p,.notice p{margin:0}
.notice{margin:0 0 16px;padding:12px 14px;border-radius:8px;background:#edf2ff;border:1px solid #bac8ff;color:#1f2a44}
.actions{display:grid;gap:12px;margin:8px 0 0}
button,.button{display:flex;align-items:center;justify-content:center;width:100%;min-height:44px;padding:10px 16px;
font:inherit;font-weight:600;text-decoration:none;border-radius:8px;border:1px solid transparent;cursor:pointer}
.primary{background:#3b5bdb;color:#fff}
.primary:hover{background:#364fc7}
.secondary{background:#fff;color:#1f2a44;border-color:#b9c2d4}
.secondary:hover{background:#f4f6fb}
:focus-visible{outline:3px solid #3b5bdb;outline-offset:2px}
a{color:#3b5bdb;font-weight:600}
.switch{margin:20px 0 0;text-align:center;color:#525b70}
.forgot{margin:-8px 0 16px;text-align:right}
.code{margin:0 0 16px;padding:12px;border-radius:8px;background:#f4f6fb;text-align:center;
font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:1.75rem;letter-spacing:.12em}
.code-input{text-transform:uppercase;text-align:center;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;letter-spacing:.12em}
ul{margin:0 0 20px;padding-left:20px}
li{margin:0 0 4px}
.who{color:#525b70;font-size:.875rem}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);border:0}
@media (min-width:640px){body{padding:64px 24px}.card{padding:32px}}
`;

export interface Page {
  status: number;
  html: string;
}

/** The app's mark (web/src/ui/Brand.tsx, web/public/favicon.svg): three rising bars on the accent tile. */
const MARK = `<svg class="brand-mark" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
<rect width="64" height="64" rx="14" fill="#3b5bdb"/><rect x="14" y="34" width="8" height="16" rx="2" fill="#bac8ff"/>
<rect x="28" y="24" width="8" height="26" rx="2" fill="#dbe4ff"/><rect x="42" y="14" width="8" height="36" rx="2" fill="#ffffff"/></svg>`;

let fontFaces = '';

/**
 * The app's own Inter files, found once in the web build (their names carry a content hash), so
 * these pages are set in the same font as the app. Without a build the system font stands in.
 */
export function useAppFonts(webDist: string): void {
  const assets = path.join(webDist, 'assets');
  if (!existsSync(assets)) return;
  const files = readdirSync(assets);
  fontFaces = [400, 600, 700]
    .map((weight) => ({ weight, file: files.find((name) => name.startsWith(`inter-latin-${weight}-normal-`) && name.endsWith('.woff2')) }))
    .filter((face): face is { weight: number; file: string } => Boolean(face.file))
    .map((face) => `@font-face{font-family:Inter;font-style:normal;font-display:swap;font-weight:${face.weight};src:url(/assets/${face.file}) format("woff2")}`)
    .join('\n');
}

function layout(title: string, content: string, status = 200, head = ''): Page {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Paybench</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="icon" href="/favicon.ico" sizes="192x192">${head}
<style>${fontFaces}${CSS}</style>
</head>
<body>
<main>
<p class="brand">${MARK}Paybench</p>
<div class="card">
${content}
</div>
</main>
</body>
</html>`;
  return { status, html };
}

const alert = (message: string | undefined): string =>
  message ? `<div class="alert" role="alert"><p>${escapeHtml(message)}</p></div>` : '';

interface FieldOptions {
  name: string;
  label: string;
  type: 'email' | 'password' | 'text';
  value?: string;
  autocomplete: string;
  hint?: string;
  error?: string;
  /** Marks the field invalid when the message is shown elsewhere (a form-level alert). */
  invalid?: boolean;
  autofocus?: boolean;
  extra?: string;
}

function field(options: FieldOptions): string {
  const id = `field-${options.name}`;
  const described = [options.hint ? `${id}-hint` : '', options.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const attributes = [
    `id="${id}"`,
    `name="${options.name}"`,
    `type="${options.type}"`,
    `autocomplete="${options.autocomplete}"`,
    'required',
    options.value ? `value="${escapeHtml(options.value)}"` : '',
    described ? `aria-describedby="${described}"` : '',
    options.error || options.invalid ? 'aria-invalid="true"' : '',
    options.autofocus ? 'autofocus' : '',
    options.extra ?? '',
  ].filter(Boolean);
  return `<div class="field">
<label for="${id}">${escapeHtml(options.label)}</label>
${options.hint ? `<p class="hint" id="${id}-hint">${escapeHtml(options.hint)}</p>` : ''}
<input ${attributes.join(' ')}>
${options.error ? `<p class="field-error" id="${id}-error">${escapeHtml(options.error)}</p>` : ''}
</div>`;
}

const interactionPath = (uid: string, action = ''): string => `/interaction/${encodeURIComponent(uid)}${action ? `/${action}` : ''}`;

export interface SignInView {
  uid: string;
  email?: string;
  error?: string;
  clientName: string;
}

export function signInPage(view: SignInView, status = 200): Page {
  return layout(
    'Sign in',
    `<h1>Sign in</h1>
<p class="lead">to continue to ${escapeHtml(view.clientName)}</p>
${alert(view.error)}
<form method="post" action="${interactionPath(view.uid, 'login')}" novalidate>
${field({ name: 'email', label: 'Email', type: 'email', value: view.email, autocomplete: 'username', autofocus: !view.email })}
${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', autofocus: Boolean(view.email) })}
<p class="forgot"><a href="${interactionPath(view.uid, 'forgot')}">Forgot password?</a></p>
<div class="actions"><button class="primary" type="submit">Sign in</button></div>
<p class="hint">Your company signs in with single sign-on? Enter your work email and choose Sign in: you will continue at your company's sign-in.</p>
</form>
<form method="post" action="${interactionPath(view.uid, 'abort')}">
<div class="actions"><button class="secondary" type="submit">Cancel</button></div>
</form>
<p class="switch">New to Paybench? <a href="${interactionPath(view.uid, 'signup')}">Create an account</a></p>`,
    status,
  );
}

export interface SignUpValues {
  email: string;
  firstName: string;
  lastName: string;
}

export type SignUpErrors = Partial<Record<keyof SignUpValues | 'password', string>>;

export interface SignUpView {
  uid: string;
  values: SignUpValues;
  errors: SignUpErrors;
  formError?: string;
}

export function signUpPage(view: SignUpView, status = 200): Page {
  const { values, errors } = view;
  const summary = view.formError ?? (Object.keys(errors).length ? 'Check the highlighted fields and try again.' : undefined);
  const first = (['email', 'firstName', 'lastName', 'password'] as const).find((name) => errors[name]);
  return layout(
    'Create your account',
    `<h1>Create your account</h1>
<p class="lead">Benchmark pay, build bands and run merit cycles with your team.</p>
${alert(summary)}
<form method="post" action="${interactionPath(view.uid, 'signup')}" novalidate>
${field({ name: 'email', label: 'Work email', type: 'email', value: values.email, autocomplete: 'email', error: errors.email, autofocus: !first || first === 'email' })}
${field({ name: 'firstName', label: 'First name', type: 'text', value: values.firstName, autocomplete: 'given-name', error: errors.firstName, autofocus: first === 'firstName' })}
${field({ name: 'lastName', label: 'Last name', type: 'text', value: values.lastName, autocomplete: 'family-name', error: errors.lastName, autofocus: first === 'lastName' })}
${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', hint: 'At least 12 characters.', error: errors.password, autofocus: first === 'password', extra: 'minlength="12"' })}
<div class="actions"><button class="primary" type="submit">Create account</button></div>
</form>
<p class="switch">Already have an account? <a href="${interactionPath(view.uid)}">Sign in</a></p>`,
    status,
  );
}

const SCOPE_TEXT: Record<string, string> = {
  openid: 'Confirm that it is you',
  profile: 'See your name',
  email: 'See your email address',
  offline_access: 'Stay signed in, even while you are away, until you sign it out',
};

export interface ConsentView {
  uid: string;
  clientName: string;
  email: string | undefined;
  scopes: string[];
}

export function consentPage(view: ConsentView): Page {
  const items = view.scopes.map((scope) => SCOPE_TEXT[scope]).filter((text): text is string => Boolean(text));
  return layout(
    `Allow ${view.clientName}?`,
    `<h1>Allow ${escapeHtml(view.clientName)}?</h1>
${view.email ? `<p class="who">Signed in as ${escapeHtml(view.email)}</p>` : ''}
<p>${escapeHtml(view.clientName)} will act as you in Paybench, with your permissions. It will be able to:</p>
<ul>${items.map((text) => `<li>${escapeHtml(text)}</li>`).join('')}<li>Read and change Paybench data you have access to</li></ul>
<p class="lead">Only allow this if you started it yourself just now.</p>
<form method="post" action="${interactionPath(view.uid, 'consent')}">
<div class="actions">
<button class="primary" type="submit" name="decision" value="allow" autofocus>Allow</button>
<button class="secondary" type="submit" name="decision" value="deny">Deny</button>
</div>
</form>`,
  );
}

export function lockedMessage(until: Date, now = Date.now()): string {
  const minutes = Math.max(1, Math.ceil((until.getTime() - now) / 60_000));
  return `Too many unsuccessful attempts. For your security, signing in is paused for ${minutes} minute${minutes === 1 ? '' : 's'}. Try again later.`;
}

export function resetLockedMessage(until: Date, now = Date.now()): string {
  const minutes = Math.max(1, Math.ceil((until.getTime() - now) / 60_000));
  return `Too many requests for a link. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

export function expiredPage(homeUrl: string): Page {
  return layout(
    'Sign-in expired',
    `<h1>This sign-in has expired</h1>
${alert('The sign-in request could not be found. It may have expired or already been used.')}
<div class="actions"><a class="button primary" href="${escapeHtml(homeUrl)}">Start again</a></div>`,
    400,
  );
}

export function errorPage(homeUrl: string, message: string, status: number): Page {
  return layout(
    'Something went wrong',
    `<h1>Something went wrong</h1>
${alert(message)}
<div class="actions"><a class="button primary" href="${escapeHtml(homeUrl)}">Back to Paybench</a></div>`,
    status,
  );
}

/** The hidden inputs and target of a form oidc-provider built (its anti-forgery secret and codes), already escaped. */
export interface ProviderForm {
  action: string;
  hiddenInputs: string;
}

export function providerForm(html: string): ProviderForm {
  const action = /action="([^"]*)"/.exec(html)?.[1] ?? '';
  const hiddenInputs = (html.match(/<input type="hidden"[^>]*>/g) ?? []).join('\n');
  return { action, hiddenInputs };
}

export function deviceCodePage(form: ProviderForm, code: string | undefined, error: string | undefined): Page {
  return layout(
    'Connect a device',
    `<h1>Connect the Paybench CLI</h1>
<p class="lead">Enter the code shown in your terminal.</p>
${alert(error)}
<form method="post" action="${form.action}" novalidate>
${form.hiddenInputs}
${field({ name: 'user_code', label: 'Code', type: 'text', value: code, autocomplete: 'off', invalid: Boolean(error), autofocus: true, extra: 'class="code-input" autocapitalize="characters" spellcheck="false"' })}
<div class="actions"><button class="primary" type="submit">Continue</button></div>
</form>`,
    error ? 400 : 200,
  );
}

export function deviceConfirmPage(form: ProviderForm, clientName: string, userCode: string): Page {
  return layout(
    'Confirm the code',
    `<h1>Is this the code in your terminal?</h1>
<p class="lead">${escapeHtml(clientName)} is asking to sign in as you. Compare the code with the one in your terminal.</p>
<p class="code"><span class="sr-only">Code: </span>${escapeHtml(userCode)}</p>
<p>If you did not start this, or the codes differ, cancel.</p>
<form method="post" action="${form.action}">
${form.hiddenInputs}
<div class="actions">
<button class="primary" type="submit" autofocus>Yes, continue</button>
<button class="secondary" type="submit" name="abort" value="yes">Cancel</button>
</div>
</form>`,
  );
}

export function deviceDonePage(clientName: string): Page {
  return layout(
    'Device connected',
    `<h1>You're signed in</h1>
<div class="notice" role="status"><p>${escapeHtml(clientName)} is now signed in. You can close this tab and return to your terminal.</p></div>`,
  );
}

export function logoutPage(form: ProviderForm): Page {
  return layout(
    'Sign out',
    `<h1>Sign out of Paybench?</h1>
<p class="lead">You will be signed out on this browser.</p>
<form method="post" action="${form.action}">
${form.hiddenInputs}
<div class="actions">
<button class="primary" type="submit" name="logout" value="yes" autofocus>Sign out</button>
<button class="secondary" type="submit">Stay signed in</button>
</div>
</form>`,
  );
}

/** The one script these pages carry: it sends the sign-out form the app asked for (see `autoSignOutPage`). */
export const AUTO_SUBMIT_SCRIPT = "document.forms[0].submit();";

/**
 * The app's own sign-out (its ID token names this browser's session): nothing to ask, the form goes
 * by itself; without scripts the button does it.
 */
export function autoSignOutPage(form: ProviderForm): Page {
  return layout(
    'Signing out',
    `<h1>Signing you out…</h1>
<form method="post" action="${form.action}">
${form.hiddenInputs}
<input type="hidden" name="logout" value="yes">
<noscript><div class="actions"><button class="primary" type="submit">Finish signing out</button></div></noscript>
</form>
<script>${AUTO_SUBMIT_SCRIPT}</script>`,
  );
}

export function signedOutPage(homeUrl: string): Page {
  return layout(
    'Signed out',
    `<h1>You're signed out</h1>
<div class="notice" role="status"><p>You have been signed out of Paybench.</p></div>
<div class="actions"><a class="button primary" href="${escapeHtml(homeUrl)}">Sign in again</a></div>`,
  );
}

export interface InvitationView {
  path: string;
  email: string;
  firstName: string;
  error?: string;
}

export function invitationPage(view: InvitationView, status = 200): Page {
  return layout(
    'Choose your password',
    `<h1>Welcome${view.firstName ? `, ${escapeHtml(view.firstName)}` : ''}</h1>
<p class="lead">Choose a password to finish setting up your Paybench account.</p>
${alert(view.error ? 'Check the highlighted field and try again.' : undefined)}
<form method="post" action="${escapeHtml(view.path)}" novalidate>
<input type="email" name="email" autocomplete="username" aria-label="Email" value="${escapeHtml(view.email)}" hidden readonly>
<p class="who">Your sign-in email is ${escapeHtml(view.email)}</p>
${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', hint: 'At least 12 characters.', error: view.error, autofocus: true, extra: 'minlength="12"' })}
<div class="actions"><button class="primary" type="submit">Set password</button></div>
</form>`,
    status,
  );
}

export function invitationUsedPage(homeUrl: string): Page {
  return layout(
    'Invitation not valid',
    `<h1>This invitation is no longer valid</h1>
${alert('The link has expired, was withdrawn or has already been used. Ask your company admin to invite you again, or sign in if you have set your password.')}
<div class="actions"><a class="button primary" href="${escapeHtml(homeUrl)}">Go to Paybench</a></div>`,
    410,
  );
}

export function invitationDonePage(homeUrl: string, email: string): Page {
  return layout(
    'Password set',
    `<h1>You're all set</h1>
<div class="notice" role="status"><p>Your password is set. Sign in with ${escapeHtml(email)} and your new password.</p></div>
<div class="actions"><a class="button primary" href="${escapeHtml(homeUrl)}">Sign in</a></div>`,
  );
}

/** The one answer to a reset request, whether or not the e-mail has an account. */
export const RESET_REQUESTED = 'If an account exists for that e-mail, we sent a link.';

export interface ForgotPasswordView {
  uid: string;
  email?: string;
  error?: string;
}

export function forgotPasswordPage(view: ForgotPasswordView, status = 200): Page {
  return layout(
    'Forgot password',
    `<h1>Forgot your password?</h1>
<p class="lead">Enter the email you sign in with and we will send you a link to choose a new password.</p>
${alert(status === 429 ? view.error : undefined)}
<form method="post" action="${interactionPath(view.uid, 'forgot')}" novalidate>
${field({ name: 'email', label: 'Email', type: 'email', value: view.email, autocomplete: 'username', error: status === 429 ? undefined : view.error, invalid: status === 429, autofocus: true })}
<div class="actions"><button class="primary" type="submit">Send link</button></div>
</form>
<p class="switch"><a href="${interactionPath(view.uid)}">Back to sign in</a></p>`,
    status,
  );
}

export function resetRequestedPage(uid: string): Page {
  return layout(
    'Check your email',
    `<h1>Check your email</h1>
<div class="notice" role="status"><p>${escapeHtml(RESET_REQUESTED)}</p></div>
<p class="lead">The link works once, for an hour. If nothing arrives, check the address and your spam folder, or ask your company admin.</p>
<p class="switch"><a href="${interactionPath(uid)}">Back to sign in</a></p>`,
  );
}

/**
 * After a sign-up: the same page whether the address was new or already had an account (the
 * e-mail tells its owner which), so the form cannot be used to learn who has an account.
 */
export function signUpSentPage(view: { uid: string; email: string }): Page {
  return layout(
    'Check your email',
    `<h1>Check your email</h1>
<div class="notice" role="status"><p>We sent an email to ${escapeHtml(view.email)}. Open the link in it to confirm your address, then sign in to finish setting up your account.</p></div>
<p class="lead">If you already had an account with this address, the email says so and how to sign in. If nothing arrives, check the address and your spam folder.</p>
<p class="switch"><a href="${interactionPath(view.uid)}">Go to sign in</a></p>`,
  );
}

export interface ResetPasswordView {
  path: string;
  email: string;
  error?: string;
}

export function resetPasswordPage(view: ResetPasswordView, status = 200): Page {
  return layout(
    'Choose a new password',
    `<h1>Choose a new password</h1>
<p class="lead">You will be signed out everywhere else.</p>
${alert(view.error ? 'Check the highlighted field and try again.' : undefined)}
<form method="post" action="${escapeHtml(view.path)}" novalidate>
<input type="email" name="email" autocomplete="username" aria-label="Email" value="${escapeHtml(view.email)}" hidden readonly>
<p class="who">Your sign-in email is ${escapeHtml(view.email)}</p>
${field({ name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', hint: 'At least 12 characters.', error: view.error, autofocus: true, extra: 'minlength="12"' })}
<div class="actions"><button class="primary" type="submit">Set new password</button></div>
</form>`,
    status,
  );
}

export function resetUsedPage(homeUrl: string): Page {
  return layout(
    'Link not valid',
    `<h1>This link has expired</h1>
${alert('The link has expired or has already been used. Ask for a new one with "Forgot password?" on the sign-in page.')}
<div class="actions"><a class="button primary" href="${escapeHtml(homeUrl)}">Go to Paybench</a></div>`,
    410,
  );
}

export function resetDonePage(homeUrl: string, email: string): Page {
  return layout(
    'Password changed',
    `<h1>Your password is changed</h1>
<div class="notice" role="status"><p>Sign in with ${escapeHtml(email)} and your new password.</p></div>
<div class="actions"><a class="button primary" href="${escapeHtml(homeUrl)}">Sign in</a></div>`,
  );
}

export function emailVerifiedPage(nextUrl: string, email: string, hasCompany: boolean): Page {
  return layout(
    'E-mail verified',
    `<h1>Your e-mail is verified</h1>
<div class="notice" role="status"><p>Thank you: ${escapeHtml(email)} is confirmed.</p></div>
<p class="lead">${hasCompany ? 'You can now use Paybench.' : 'Next, confirm your details and create your company.'}</p>
<div class="actions"><a class="button primary" href="${escapeHtml(nextUrl)}">${hasCompany ? 'Go to Paybench' : 'Continue'}</a></div>`,
  );
}

export function verificationUsedPage(homeUrl: string): Page {
  return layout(
    'Link not valid',
    `<h1>This link has expired</h1>
${alert('The link is older than a day, or your e-mail address changed since it was sent. Sign in to Paybench and ask for a new link.')}
<div class="actions"><a class="button primary" href="${escapeHtml(homeUrl)}">Go to Paybench</a></div>`,
    410,
  );
}

/**
 * On to the company's own provider after a form was sent. A redirect would be refused: the pages'
 * policy lets forms lead only to Paybench (`form-action 'self'`), so the browser moves on by itself.
 */
export function enterpriseRedirectPage(target: string): Page {
  const url = escapeHtml(target);
  return layout(
    'Continuing to your company sign-in',
    `<h1>Continuing to your company's sign-in</h1>
<p class="lead">Your company signs in to Paybench with its own sign-in.</p>
<div class="actions"><a class="button primary" href="${url}">Continue</a></div>`,
    200,
    `\n<meta http-equiv="refresh" content="0;url=${url}">`,
  );
}

// ── proof of an e-mail domain by link (identity/domains/proofLinks.ts) ─────────────────────────

export interface DomainProofView {
  path: string;
  domain: string;
  companyName: string;
  email: string;
  requestedBy: string | null;
}

/** Opening the link asks for a click: a mail scanner that fetches links must not prove a domain. */
export function domainProofPage(view: DomainProofView): Page {
  const asker = view.requestedBy ? `${escapeHtml(view.requestedBy)}, an admin of ${escapeHtml(view.companyName)},` : `An admin of ${escapeHtml(view.companyName)}`;
  return layout(
    `Confirm ${view.domain}`,
    `<h1>Confirm that ${escapeHtml(view.companyName)} controls ${escapeHtml(view.domain)}</h1>
<p class="lead">${asker} asked Paybench to send this link to ${escapeHtml(view.email)}. Confirming proves that the company controls ${escapeHtml(view.domain)}: people with addresses there can be routed to its sign-in, and it can take part in the salary market as the organisation at this domain.</p>
<p>If you do not know ${escapeHtml(view.companyName)} or did not expect this, close this page: nothing changes.</p>
<form method="post" action="${escapeHtml(view.path)}">
<div class="actions"><button class="primary" type="submit">Confirm ${escapeHtml(view.domain)}</button></div>
</form>`,
  );
}

export function domainProvenPage(homeUrl: string, domain: string, companyName: string): Page {
  return layout(
    'Domain proven',
    `<h1>${escapeHtml(domain)} is proven</h1>
<div class="notice" role="status"><p>Thank you: ${escapeHtml(companyName)} now holds ${escapeHtml(domain)} proven in Paybench.</p></div>
<div class="actions"><a class="button primary" href="${escapeHtml(homeUrl)}">Go to Paybench</a></div>`,
  );
}

export function domainProofUsedPage(homeUrl: string): Page {
  return layout(
    'Link not valid',
    `<h1>This link has expired</h1>
${alert('The link is older than a day, has already been used, was replaced by a newer one, or its domain is no longer claimed. A company admin can send a new one from Settings → Enterprise sign-in.')}
<div class="actions"><a class="button primary" href="${escapeHtml(homeUrl)}">Go to Paybench</a></div>`,
    410,
  );
}
