import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from '../../openapi.js';

export type ApiErrorBody = components['schemas']['Error'];

export interface Connection {
  url: string;
  token: string | undefined;
}

/** An API refusal, carrying the contract's error shape. */
export class ApiError extends Error {
  constructor(
    readonly body: ApiErrorBody,
    readonly status: number,
  ) {
    super(body.message ?? body.description);
  }
}

/** The server could not be reached at all. */
export class ConnectionError extends Error {}

export function createApi(connection: Connection) {
  const client = createClient<paths>({ baseUrl: connection.url.replace(/\/+$/, '') });
  const auth: Middleware = {
    onRequest({ request }) {
      if (connection.token) request.headers.set('Authorization', `Bearer ${connection.token}`);
      request.headers.set('User-Agent', 'paybench-cli');
      return request;
    },
  };
  client.use(auth);
  return client;
}

export type Api = ReturnType<typeof createApi>;

/** Unwraps an openapi-fetch result: the data, or an ApiError with the server's explanation. */
export async function call<T>(
  connection: Connection,
  request: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await request;
  } catch (error) {
    const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    throw new ConnectionError(`Could not reach Paybench at ${connection.url} (${reason}).`);
  }
  if (result.data !== undefined) return result.data;
  const body = result.error as Partial<ApiErrorBody> | undefined;
  const status = result.response.status;
  throw new ApiError(
    {
      code: body?.code ?? 'http_error',
      title: body?.title ?? 'Something went wrong',
      description: body?.description ?? `Request failed with status code ${status}`,
      status,
      ...(body?.message ? { message: body.message } : {}),
      ...(body?.errors ? { errors: body.errors } : {}),
    },
    status,
  );
}
