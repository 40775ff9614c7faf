import type { ClientMetadata } from 'oidc-provider';

export const WEB_CLIENT_ID = 'paybench-web';
export const CLI_CLIENT_ID = 'paybench-cli';
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** The scopes Paybench's own clients ask for. */
export const SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const;

/** The audience of every access token the built-in provider issues: the contract API. */
export const apiAudience = (publicUrl: string): string => `${publicUrl}/api`;

/** The web app is granted its scopes on sign-in; the CLI is approved explicitly every time. */
export const AUTO_CONSENT_CLIENTS: ReadonlySet<string> = new Set([WEB_CLIENT_ID]);

export function clientName(clientId: string | undefined): string {
  return clientId === CLI_CLIENT_ID ? 'Paybench CLI' : 'Paybench';
}

/** First-party clients come from configuration, never from the database. */
export function firstPartyClients(publicUrl: string): ClientMetadata[] {
  return [
    {
      client_id: WEB_CLIENT_ID,
      client_name: 'Paybench',
      application_type: 'web',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: [`${publicUrl}/auth0/callback`],
      post_logout_redirect_uris: [`${publicUrl}/`, `${publicUrl}/logout`],
      scope: SCOPES.join(' '),
    },
    {
      client_id: CLI_CLIENT_ID,
      client_name: 'Paybench CLI',
      // Native: oidc-provider asks for consent on every device sign-in.
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      grant_types: [DEVICE_CODE_GRANT, 'refresh_token'],
      response_types: [],
      redirect_uris: [],
      scope: SCOPES.join(' '),
    },
  ];
}
