import { describe, expect, it } from 'vitest';
import { type MappableField, headerWords, mappingMessage, mappingProblems, missingRequired, suggestMapping } from './mapping.js';

// A small import of its own: the shared mapping knows no area's fields.
type Field = 'sku' | 'name' | 'unitPrice' | 'notes';
const FIELDS: readonly MappableField<Field>[] = [
  { field: 'sku', label: 'SKU', required: true, aliases: ['stock keeping unit', 'item code'] },
  { field: 'name', label: 'Product name', required: true, aliases: ['name', 'title'] },
  { field: 'unitPrice', label: 'Unit price', required: false, aliases: ['price per unit', 'list price'] },
  { field: 'notes', label: 'Notes', required: false, aliases: ['comment'] },
];

describe('the shared column mapping', () => {
  it('reads headers as lower-case words', () => {
    expect(headerWords('Bonus %')).toBe('bonus percent');
    expect(headerWords('unitPrice')).toBe('unit price');
    expect(headerWords('Item #')).toBe('item number');
  });

  it('matches known names exactly, then nearly, each column once, in the order of the fields', () => {
    // "Item Code" is an alias (exact); "List Prices" is one letter from "list price" (fuzzy);
    // "Title" is an alias of name; "Colour" is nothing; "Item Code (2)" loses to the exact match.
    expect(suggestMapping(['Colour', 'List Prices', 'Title', 'Item Code', 'Item Code (2)'], FIELDS)).toEqual({ sku: 'Item Code', name: 'Title', unitPrice: 'List Prices' });
  });

  it('names the required fields a mapping leaves out', () => {
    expect(missingRequired({ name: 'Title' }, FIELDS)).toEqual(['sku']);
  });

  it('finds unknown fields, missing or doubly used columns and missing required fields, each under the prefix', () => {
    const problems = mappingProblems<Field>({
      mapping: { sku: 'Code', name: 'Code', notes: 'Remarks', ['colour' as Field]: 'Colour' },
      fields: FIELDS,
      columns: ['Code', 'Colour'],
      prefix: 'body.mapping.',
      unknownField: 'is not a field of product imports',
    });
    expect(problems).toEqual([
      { field: 'body.mapping.name', message: 'column "Code" is already mapped to sku' },
      { field: 'body.mapping.notes', message: 'the file has no column "Remarks"' },
      { field: 'body.mapping.colour', message: 'is not a field of product imports' },
    ]);
    expect(mappingMessage(problems.slice(0, 2), 'body.mapping.')).toBe('The column mapping does not fit the file: name column "Code" is already mapped to sku; notes the file has no column "Remarks".');
  });

  it('checks a mapping saved without a file by its fields alone', () => {
    expect(mappingProblems<Field>({ mapping: { notes: 'Remarks' }, fields: FIELDS, prefix: 'mapping.' })).toEqual([
      { field: 'mapping.sku', message: 'is required: name the column that holds it' },
      { field: 'mapping.name', message: 'is required: name the column that holds it' },
    ]);
  });
});
