import { describe, expect, it } from 'vitest';
import { COUNTRIES } from './catalog/countries.js';
import { findStockExchange, stockExchanges } from './stockExchanges.js';

describe('the shipped stock exchanges', () => {
  it('holds the 70 exchanges of the file, each MIC once', () => {
    const mics = stockExchanges().map((exchange) => exchange.mic);
    expect(mics).toHaveLength(70);
    expect(new Set(mics).size).toBe(70);
    expect(mics.filter((mic) => !/^[A-Z0-9]{4}$/.test(mic))).toEqual([]);
  });

  it('names an operating MIC that is itself an operating row, and a real country, for every exchange', () => {
    const operating = new Set(stockExchanges().filter((e) => e.kind === 'operating').map((e) => e.mic));
    const countries = new Set(COUNTRIES.map((country) => country.alpha2));
    expect(stockExchanges().filter((e) => !operating.has(e.operatingMic)).map((e) => e.mic)).toEqual([]);
    expect(stockExchanges().filter((e) => e.kind === 'operating' && e.operatingMic !== e.mic).map((e) => e.mic)).toEqual([]);
    expect(stockExchanges().filter((e) => !countries.has(e.country)).map((e) => e.mic)).toEqual([]);
  });

  it('knows the largest exchanges by their ISO 10383 codes', () => {
    expect(findStockExchange('XNYS')).toEqual({ mic: 'XNYS', operatingMic: 'XNYS', kind: 'operating', name: 'New York Stock Exchange', country: 'US' });
    expect(findStockExchange('XTKS')).toEqual({ mic: 'XTKS', operatingMic: 'XJPX', kind: 'segment', name: 'Tokyo Stock Exchange', country: 'JP' });
    expect(findStockExchange('XLON')?.country).toBe('GB');
    expect(findStockExchange('XNAS')?.name).toBe('Nasdaq');
    expect(findStockExchange('NYSE')).toBeUndefined();
  });

  it('files market segments under their operating MIC as ISO 10383 does (Madrid under BME, Dublin under Euronext Dublin)', () => {
    expect(findStockExchange('XMAD')).toEqual({ mic: 'XMAD', operatingMic: 'BMEX', kind: 'segment', name: 'Bolsa de Madrid', country: 'ES' });
    expect(findStockExchange('BMEX')).toEqual({ mic: 'BMEX', operatingMic: 'BMEX', kind: 'operating', name: 'BME Spanish Exchanges', country: 'ES' });
    expect(findStockExchange('XMSM')).toEqual({ mic: 'XMSM', operatingMic: 'XDUB', kind: 'segment', name: 'Euronext Dublin Regulated Market', country: 'IE' });
    expect(findStockExchange('XDUB')?.kind).toBe('operating');
  });
});
