import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { hostRedirect } from './hostRedirects.js';

const hosts = ['old-brand.example', 'admin.paybench.example'];
const app = 'https://app.paybench.example';

describe('hostRedirect', () => {
  it('moves a GET on the old brand host to the app host, path and query kept, with 301', () => {
    expect(hostRedirect(hosts, app, { host: 'old-brand.example', method: 'GET', url: '/bands?grade=3&q=a%20b' })).toEqual({
      status: 301,
      location: 'https://app.paybench.example/bands?grade=3&q=a%20b',
    });
  });

  it('moves a POST on the admin host with 308, whatever the case or port of the Host header', () => {
    expect(hostRedirect(hosts, app, { host: 'ADMIN.Paybench.example:8443', method: 'POST', url: '/api/company' })).toEqual({
      status: 308,
      location: 'https://app.paybench.example/api/company',
    });
  });

  it('leaves every other host alone', () => {
    expect(hostRedirect(hosts, app, { host: 'app.paybench.example', method: 'GET', url: '/' })).toBeNull();
    expect(hostRedirect(hosts, app, { host: 'evil-old-brand.example', method: 'GET', url: '/' })).toBeNull();
    expect(hostRedirect([], app, { host: 'old-brand.example', method: 'GET', url: '/' })).toBeNull();
  });

  it('reads the hosts from PAYBENCH_REDIRECT_HOSTS and refuses something that is not a host name', () => {
    expect(loadConfig({ PAYBENCH_REDIRECT_HOSTS: ' Old-Brand.example , admin.paybench.example:8443 ' }).redirectHosts).toEqual([
      'old-brand.example',
      'admin.paybench.example:8443',
    ]);
    expect(loadConfig({}).redirectHosts).toEqual([]);
    expect(() => loadConfig({ PAYBENCH_REDIRECT_HOSTS: 'https://old.example/' })).toThrow(/PAYBENCH_REDIRECT_HOSTS/);
  });
});
