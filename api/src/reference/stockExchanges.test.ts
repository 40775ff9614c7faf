import { describe, expect, it } from 'vitest';
import type { components } from '../contract-types.js';
import { type ErrorBody, request } from '../../test/http.js';

type StockExchange = components['schemas']['StockExchange'];

describe('GET /api/stock-exchanges', () => {
  it('lists the shipped exchanges by name, each with its MIC, operating MIC and country', async () => {
    const reply = await request<{ data: StockExchange[] }>('/api/stock-exchanges');
    expect(reply.status).toBe(200);
    expect(reply.body.data).toHaveLength(70);
    expect(reply.body.data.slice(0, 3).map((exchange) => exchange.name)).toEqual([
      'Abu Dhabi Securities Exchange',
      'ASX',
      'B3 - Brasil Bolsa Balcão',
    ]);
    expect(reply.body.data.find((exchange) => exchange.mic === 'XTSX')).toEqual({
      mic: 'XTSX',
      operatingMic: 'XTSE',
      kind: 'segment',
      name: 'TSX Venture Exchange',
      country: 'CA',
    });
  });

  it('narrows the list to one country', async () => {
    const reply = await request<{ data: StockExchange[] }>('/api/stock-exchanges?country=JP');
    expect(reply.status).toBe(200);
    expect(reply.body.data.map((exchange) => exchange.mic)).toEqual(['XJPX', 'XOSE', 'XTKS']);
    const none = await request<{ data: StockExchange[] }>('/api/stock-exchanges?country=ZZ');
    expect(none.body.data).toEqual([]);
  });

  it('refuses a country that is not an ISO alpha-2 code, naming the parameter', async () => {
    const reply = await request<ErrorBody>('/api/stock-exchanges?country=japan');
    expect(reply.status).toBe(400);
    expect(JSON.stringify(reply.body)).toContain('country');
  });
});
