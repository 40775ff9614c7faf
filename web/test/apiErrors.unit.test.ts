import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANCELED, HttpError, catalogueText, errorBody, normaliseError, timeoutSignal, transportError } from '../src/api/errors';

const UNEXPECTED = { title: 'Something went wrong', description: 'An unexpected error occurred. Please wait and try again.' };

describe('the error catalogue of the client', () => {
  it('words 400, 409, 413, 428, 500 and 502 as an unexpected error', () => {
    for (const status of [400, 409, 413, 428, 500, 502]) expect(catalogueText(status)).toEqual(UNEXPECTED);
  });

  it('words the other statuses it names, and everything else, as the spec does', () => {
    const noAccess = { title: 'Permission denied', description: 'You do not have access to this content. Please contact your company admin for support.' };
    expect(catalogueText(401)).toEqual(noAccess);
    expect(catalogueText(403)).toEqual(noAccess);
    expect(catalogueText(404)).toEqual({ title: 'Not found', description: 'The content could not be found.' });
    expect(catalogueText(429)).toEqual({ title: 'Rate limit exceeded', description: 'Too many requests have been made. Please wait 60 seconds and try again.' });
    expect(catalogueText(503)).toEqual({ title: 'Service unavailable', description: 'Paybench is temporarily unavailable. Please wait and try again.' });
    const other = { title: 'Something went wrong', description: 'Please refresh the page and try again. If the problem persists, contact your company admin for support.' };
    expect(catalogueText(418)).toEqual(other);
    expect(catalogueText(504)).toEqual(other);
    expect(catalogueText(undefined)).toEqual(other);
  });
});

describe('failed answers, normalised', () => {
  it('keeps the server’s contract error and adds where the request went', () => {
    const server = { code: 'version_conflict', title: 'Something went wrong', description: 'An unexpected error occurred. Please wait and try again.', status: 409, message: 'Someone else changed these settings first. Reload and try again.' };
    expect(errorBody(409, '/api/company/settings', server)).toEqual({ ...server, url: '/api/company/settings' });
    expect(normaliseError(errorBody(409, '/api/company/settings', server))).toEqual({
      message: 'Someone else changed these settings first. Reload and try again.',
      code: 'version_conflict',
      status: 409,
      url: '/api/company/settings',
      title: 'Something went wrong',
      description: 'An unexpected error occurred. Please wait and try again.',
    });
  });

  it('words an answer that is not the contract’s (a proxy’s page, an empty body) from the catalogue, with the HTTP client’s message', () => {
    const body = errorBody(502, '/api/me', '<html><body>Bad gateway</body></html>');
    expect(body).toEqual({ code: '502', title: 'Something went wrong', description: 'An unexpected error occurred. Please wait and try again.', status: 502, url: '/api/me' });
    expect(normaliseError(body)).toEqual({ message: 'Request failed with status code 502', code: '502', status: 502, url: '/api/me', ...UNEXPECTED });
    expect(normaliseError(errorBody(413, '/api/imports', ''))).toMatchObject({ message: 'Request failed with status code 413', code: '413', status: 413, description: UNEXPECTED.description });
  });

  it('says "Network Error" when nothing answered, and code canceled with "Request aborted" when the client cancelled', () => {
    const network = transportError(new TypeError('Failed to fetch'), '/api/employees/me');
    expect(network).toBeInstanceOf(HttpError);
    expect(normaliseError(network)).toEqual({
      message: 'Network Error',
      code: 'ERR_NETWORK',
      status: undefined,
      url: '/api/employees/me',
      title: 'Something went wrong',
      description: 'Please refresh the page and try again. If the problem persists, contact your company admin for support.',
    });
    const cancelled = transportError(new DOMException('This operation was aborted', 'AbortError'), '/api/benchmarking/market-data');
    expect({ message: cancelled.message, code: cancelled.code, url: cancelled.url }).toEqual({ message: 'Request aborted', code: 'canceled', url: '/api/benchmarking/market-data' });
    expect(CANCELED).toBe('canceled');
  });

  describe('a request with a time limit', () => {
    let server: Server;
    let url: string;
    beforeAll(async () => {
      // Takes the request and never answers.
      server = createServer(() => undefined);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/slow`;
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    it('fails with "timeout of N ms exceeded"', async () => {
      const failure = await fetch(url, { signal: timeoutSignal(150) }).then(
        () => null,
        (error: unknown) => transportError(error, '/api/slow'),
      );
      expect(failure && { message: failure.message, code: failure.code, url: failure.url }).toEqual({ message: 'timeout of 150 ms exceeded', code: 'ECONNABORTED', url: '/api/slow' });
    });
  });
});
