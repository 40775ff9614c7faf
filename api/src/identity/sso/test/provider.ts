// Test helper: a second, real OpenID provider (oidc-provider) standing for a company's own, with
// Paybench registered as its client and a few people who sign in by typing their login name.
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

export const CLIENT_ID = 'paybench';
export const CLIENT_SECRET = 'bigco-client-secret-7f3a91';

/** The people the company's provider knows, by the login name typed into its form. */
export const ACCOUNTS: Record<string, Record<string, unknown>> = {
  ana: { email: 'ana.lima@bigco.test', email_verified: true, given_name: 'Ana', family_name: 'Lima' },
  unverified: { email: 'bruno@bigco.test', email_verified: false, given_name: 'Bruno', family_name: 'Costa' },
  outsider: { email: 'carla@elsewhere.test', email_verified: true, given_name: 'Carla', family_name: 'Dias' },
};

export interface CompanyProvider {
  issuer: string;
  close(): Promise<void>;
}

/** A second, real OpenID provider on a random port: the company's own, with Paybench as its client. */
export async function startCompanyProvider(redirectUri: string): Promise<CompanyProvider> {
  const http: HttpServer = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const configuration = {
    clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'] }],
    cookies: { keys: ['company-provider-test-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name', 'name'] },
    async findAccount(_ctx: unknown, id: string) {
      const claims = ACCOUNTS[id];
      return claims ? { accountId: id, claims: () => ({ sub: `bigco|${id}`, ...claims }) } : undefined;
    },
  } as unknown as Partial<Configuration>;
  const provider = new Provider(issuer, configuration);
  http.on('request', provider.callback());
  return { issuer, close: () => new Promise<void>((resolve) => http.close(() => resolve())) };
}
