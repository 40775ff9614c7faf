import { ConnectionError } from './client.js';

export const CLIENT_ID = 'paybench-cli';
const SCOPE = 'openid profile email offline_access';
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export interface DeviceCode {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete?: string;
  expires_in: number;
  interval?: number;
}

export interface TokenResponse {
  access_token: string;
  refresh_token?: string;
  expires_in: number;
}

/** The provider said no (RFC 6749 §5.2); `error` is its code, e.g. `access_denied`. */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    description: string | undefined,
  ) {
    super(description ?? error);
  }
}

async function postForm<T>(baseUrl: string, path: string, form: Record<string, string>): Promise<T> {
  let response: Response;
  try {
    response = await fetch(new URL(path, baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', 'user-agent': 'paybench-cli' },
      body: new URLSearchParams(form).toString(),
    });
  } catch (error) {
    const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    throw new ConnectionError(`Could not reach Paybench at ${baseUrl} (${reason}).`);
  }
  const body = (await response.json().catch(() => ({}))) as T & { error?: string; error_description?: string };
  if (!response.ok) throw new OAuthError(body.error ?? `http_${response.status}`, body.error_description);
  return body;
}

export const startDeviceAuthorization = (baseUrl: string): Promise<DeviceCode> =>
  postForm<DeviceCode>(baseUrl, '/oauth/device/code', { client_id: CLIENT_ID, scope: SCOPE });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls at the interval the provider asks for (slower when told to) until approved, denied or expired. */
export async function pollForTokens(baseUrl: string, device: DeviceCode): Promise<TokenResponse> {
  let interval = (device.interval ?? 5) * 1000;
  const deadline = Date.now() + device.expires_in * 1000;
  while (Date.now() < deadline) {
    await sleep(interval);
    try {
      return await postForm<TokenResponse>(baseUrl, '/oauth/token', { grant_type: DEVICE_GRANT, device_code: device.device_code, client_id: CLIENT_ID });
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      if (error.error === 'authorization_pending') continue;
      if (error.error === 'slow_down') interval += 5000;
      else throw error;
    }
  }
  throw new OAuthError('expired_token', 'The code expired before it was approved. Run paybench login again.');
}

export const refreshTokens = (baseUrl: string, refreshToken: string): Promise<TokenResponse> =>
  postForm<TokenResponse>(baseUrl, '/oauth/token', { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: CLIENT_ID });
