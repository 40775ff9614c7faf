import { describe, expect, it } from 'vitest';
import { apiUrlProblems, type ConnectorSettings } from './connector.js';

const withApiUrl = (apiUrl?: string): ConnectorSettings => ({ values: apiUrl === undefined ? {} : { apiUrl }, secrets: {} });
const refused = [{ field: 'apiUrl', message: 'must be an http:// or https:// URL' }];

describe("a connector's own API address", () => {
  it('may be left out, or be any http(s) URL', () => {
    expect(apiUrlProblems(withApiUrl())).toEqual([]);
    expect(apiUrlProblems(withApiUrl(''))).toEqual([]);
    expect(apiUrlProblems(withApiUrl('https://api.sandbox.hibob.com/v1'))).toEqual([]);
    expect(apiUrlProblems(withApiUrl('HTTP://127.0.0.1:8080/api'))).toEqual([]);
  });

  it('is refused when it is not an http(s) URL, or not a URL at all', () => {
    for (const apiUrl of ['ftp://files.example.com', 'api.hibob.com', ' https://api.hibob.com', 'http://', 'https://exa mple.com']) {
      expect(apiUrlProblems(withApiUrl(apiUrl)), apiUrl).toEqual(refused);
    }
  });
});
