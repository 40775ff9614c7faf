import type { Connection } from './client.js';
import { OAuthError, refreshTokens } from './oauth.js';
import { Failed, NotSignedIn } from './output.js';
import { type Profile, loadProfile, saveProfile } from './profile.js';

export interface ConnectionSettings {
  url: string;
  /** False when the address is only the built-in default, so a signed-in profile's server wins. */
  urlGiven: boolean;
  token: string | undefined;
  profile: string;
}

/** A sign-in is refreshed a little before it expires, so a call never races the expiry. */
const EARLY_MS = 30_000;

export class SignInExpired extends Failed {}

async function fresh(name: string, profile: Profile): Promise<Profile> {
  if (profile.expiresAt - EARLY_MS > Date.now() || !profile.refreshToken) return profile;
  try {
    const tokens = await refreshTokens(profile.url, profile.refreshToken);
    const renewed: Profile = {
      ...profile,
      accessToken: tokens.access_token,
      // Refresh tokens rotate: the old one is spent now.
      refreshToken: tokens.refresh_token ?? profile.refreshToken,
      expiresAt: Date.now() + tokens.expires_in * 1000,
    };
    saveProfile(name, renewed);
    return renewed;
  } catch (error) {
    if (error instanceof OAuthError) throw new SignInExpired(`Your sign-in has expired. Run: paybench login${name === 'default' ? '' : ` --profile ${name}`}`);
    throw error;
  }
}

/** `--token`/`PAYBENCH_TOKEN` first; otherwise the profile's sign-in, for the server it was made on. */
export async function resolveConnection(settings: ConnectionSettings): Promise<Connection> {
  if (settings.token) return { url: settings.url, token: settings.token };
  const profile = loadProfile(settings.profile);
  if (!profile) return { url: settings.url, token: undefined };
  const url = settings.urlGiven ? settings.url : profile.url;
  if (url.replace(/\/+$/, '') !== profile.url.replace(/\/+$/, '')) return { url, token: undefined };
  return { url, token: (await fresh(settings.profile, profile)).accessToken };
}

/**
 * What to say when a command needs a sign-in and has none: which command signs in (for the
 * server and profile asked for), never that the server cannot be reached.
 */
export function notSignedIn(settings: ConnectionSettings, url: string): NotSignedIn {
  const profile = loadProfile(settings.profile);
  const where = settings.urlGiven || (profile && profile.url.replace(/\/+$/, '') !== url.replace(/\/+$/, '')) ? ` --url ${url}` : '';
  const which = settings.profile === 'default' ? '' : ` --profile ${settings.profile}`;
  const to = profile ? ` to ${url}` : '';
  return new NotSignedIn(`Not signed in${to}: run \`paybench login${where}${which}\` (or pass --token / PAYBENCH_TOKEN).`);
}
