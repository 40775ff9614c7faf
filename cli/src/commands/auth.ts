import { call, createApi, type Connection } from '../client.js';
import { OAuthError, pollForTokens, startDeviceAuthorization } from '../oauth.js';
import { Failed, type OutputOptions, printJson, printPairs } from '../output.js';
import { configFile, removeProfile, saveProfile } from '../profile.js';

export interface AuthContext {
  connection: Connection;
  output: OutputOptions;
  profile: string;
}

async function me(connection: Connection) {
  return (await call(connection, createApi(connection).GET('/api/me'))).data;
}

/** Device authorization (RFC 8628): the person approves in a browser; the CLI keeps the tokens. */
export async function loginCommand({ connection, output, profile }: AuthContext): Promise<void> {
  const url = connection.url.replace(/\/+$/, '');
  const device = await startDeviceAuthorization(url);
  // Not a hint: without the code the person cannot sign in, so it is shown even off a terminal.
  process.stderr.write(`To sign in, open ${device.verification_uri} and enter the code ${device.user_code}\n`);
  if (device.verification_uri_complete) process.stderr.write(`(or open ${device.verification_uri_complete})\n`);
  let tokens;
  try {
    tokens = await pollForTokens(url, device);
  } catch (error) {
    if (error instanceof OAuthError) throw new Failed(error.error === 'access_denied' ? 'Sign-in was cancelled in the browser.' : `Sign-in failed: ${error.message}`);
    throw error;
  }
  const person = await me({ url, token: tokens.access_token });
  saveProfile(profile, {
    url,
    email: person.email,
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    expiresAt: Date.now() + tokens.expires_in * 1000,
  });
  if (output.json) return printJson(person);
  process.stdout.write(`Signed in to ${url} as ${person.email}\n`);
}

export async function logoutCommand({ output, profile }: AuthContext): Promise<void> {
  const removed = removeProfile(profile);
  if (output.json) return printJson({ profile, signedOut: removed });
  process.stdout.write(removed ? `Signed out (profile ${profile}).\n` : `Not signed in (profile ${profile}).\n`);
}

export async function whoamiCommand({ connection, output }: AuthContext): Promise<void> {
  if (!connection.token) throw new Failed(`Not signed in. Run paybench login, or pass --token (settings kept in ${configFile()}).`);
  const person = await me(connection);
  if (output.json) return printJson(person);
  printPairs([
    ['Email', person.email],
    ['Name', `${person.firstName} ${person.lastName}`.trim()],
    ['Roles', person.companyRolesV2.map((role) => role.key).join(', ') || '(none)'],
    ['Server', connection.url],
  ]);
}
