import { describe, expect, it } from 'vitest';
import { explorerCatalogue } from '../../src/server/docs/excel-add-on.ts';
import { ENDPOINTS } from '../../src/server/data-api/endpoints/index.ts';
import {
  addInFormula,
  columnsOf,
  csvAddress,
  formulaString,
  importDataFormula,
  parameterText,
  previewTable,
  type ExplorerEndpoint,
} from '../../src/lib/spreadsheet/explorer.ts';
import { SPREADSHEET_NAMESPACE } from '../../src/lib/spreadsheet/functions.ts';

const API = 'https://api.example.test';
const catalogue = explorerCatalogue(API);

function endpoint(id: string): ExplorerEndpoint {
  const found = catalogue.endpoints.find((candidate) => candidate.id === id);
  if (found === undefined) throw new Error(`no endpoint ${id}`);
  return found;
}

describe('the spreadsheet explorer', () => {
  it('offers every stable endpoint with the fields of its rows, and asks for no format or fields parameter', () => {
    expect(catalogue.endpoints.map((item) => item.id)).toEqual(
      ENDPOINTS.filter((definition) => definition.legacy !== true).map((definition) => definition.path),
    );
    const history = endpoint('historical-price-eod/full');
    expect(history.fields.slice(0, 3)).toEqual(['symbol', 'date', 'open']);
    expect(history.params.map((param) => param.name)).not.toContain('datatype');
    expect(history.params.map((param) => param.name)).not.toContain('fields');
  });

  it('writes the add-in formula with the endpoint, its parameters and the chosen fields in the endpoint’s order', () => {
    const request = {
      endpoint: endpoint('historical-price-eod/full'),
      values: { symbol: 'AAPL', from: '2025-01-01', to: '' },
      fields: ['volume', 'date', 'close'],
    };
    expect(columnsOf(request)).toEqual(['date', 'close', 'volume']);
    expect(addInFormula(request)).toBe(
      `=${SPREADSHEET_NAMESPACE}.DATA("historical-price-eod/full", "symbol=AAPL&from=2025-01-01", "date,close,volume")`,
    );
    // Every field kept: the formula names none, and no parameters leave the second argument out too.
    expect(addInFormula({ endpoint: endpoint('stock-list'), values: {}, fields: null })).toBe(
      `=${SPREADSHEET_NAMESPACE}.DATA("stock-list")`,
    );
  });

  it('writes the CSV address and the IMPORTDATA formula with the fields, the format and the key last', () => {
    const request = {
      endpoint: endpoint('historical-price-eod/full'),
      values: { symbol: 'BRK-B' },
      fields: ['date', 'close'],
    };
    const address = csvAddress(API, request, 'KEY');
    expect(address).toBe(
      `${API}/stable/historical-price-eod/full?symbol=BRK-B&fields=date,close&datatype=csv&apikey=KEY`,
    );
    expect(importDataFormula(address ?? '')).toBe(`=IMPORTDATA("${address ?? ''}")`);
  });

  it('writes no CSV address for an endpoint that answers JSON only', () => {
    const quote = endpoint('quote');
    expect(quote.csv).toBe(false);
    expect(
      csvAddress(API, { endpoint: quote, values: { symbol: 'AAPL' }, fields: null }, 'KEY'),
    ).toBeUndefined();
  });

  it('doubles quotes inside a formula’s strings, as Excel and Sheets read them', () => {
    expect(formulaString('say "hi"')).toBe('"say ""hi"""');
    expect(parameterText({ endpoint: endpoint('search-name'), values: { query: 'Procter & Gamble' } })).toBe(
      'query=Procter%20%26%20Gamble',
    );
  });

  it('previews the first ten rows as cells, counting them all', () => {
    const rows = Array.from({ length: 25 }, (_, index) => ({
      date: `2025-01-${String(index + 1).padStart(2, '0')}`,
      close: index,
      extra: null,
    }));
    const table = previewTable(rows, ['date', 'close', 'extra']);
    expect(table.total).toBe(25);
    expect(table.rows).toHaveLength(10);
    expect(table.rows[0]).toEqual(['2025-01-01', 0, '']);
  });
});
