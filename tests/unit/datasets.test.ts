import { describe, expect, it } from 'vitest';
import { matchesQuery, queryWords, searchStatus } from '../../src/lib/datasets/search.ts';
import { DATASETS, isDatasetPagePath, isPending, PENDING_ROUTES } from '../../src/lib/routes.ts';
import { ACCOUNT_ENDPOINTS } from '../../src/server/data-api/endpoints/account.ts';
import { ALL_ENDPOINTS, ENDPOINTS } from '../../src/server/data-api/endpoints/index.ts';
import { legacyEndpoints } from '../../src/server/data-api/legacy.ts';
import { DATASET_CATEGORIES, DATASET_INFO, datasetInfo } from '../../src/server/datasets/catalog.ts';
import {
  coverageFacts,
  datasetCadences,
  datasetEndpoints,
  datasetIndex,
  planText,
  sampleCell,
  sampleEndpoint,
  yearsText,
} from '../../src/server/datasets/pages.ts';
import { sampleParams } from '../../src/server/datasets/sample.ts';

describe('the dataset of each endpoint', () => {
  it('is named by every market data endpoint definition', () => {
    const ids = new Set<string>(DATASETS.map((dataset) => dataset.id));
    const without = ENDPOINTS.filter((endpoint) => endpoint.dataset === null || !ids.has(endpoint.dataset));
    expect(without.map((endpoint) => endpoint.path)).toEqual([]);
  });

  it('is left out only by the endpoints about the caller’s own account', () => {
    const without = ALL_ENDPOINTS.filter((endpoint) => endpoint.dataset === null);
    expect(without).toEqual([...ACCOUNT_ENDPOINTS]);
  });

  it('gives every dataset of the Datasets menu at least one endpoint', () => {
    const empty = DATASETS.filter((dataset) => datasetEndpoints(dataset.id).length === 0);
    expect(empty.map((dataset) => dataset.id)).toEqual([]);
  });

  it('puts every endpoint in exactly one dataset page', () => {
    const listed = DATASETS.flatMap((dataset) =>
      datasetEndpoints(dataset.id).map((endpoint) => endpoint.path),
    );
    expect(listed.toSorted()).toEqual(ENDPOINTS.map((endpoint) => endpoint.path).toSorted());
  });

  it('follows the data rather than the docs group: crypto, forex and commodity quotes sit with their markets', () => {
    const datasetOf = (path: string) => ALL_ENDPOINTS.find((endpoint) => endpoint.path === path)?.dataset;
    expect(datasetOf('batch-crypto-quotes')).toBe('crypto');
    expect(datasetOf('batch-forex-quotes')).toBe('forex');
    expect(datasetOf('batch-commodity-quotes')).toBe('commodity');
    expect(datasetOf('news/crypto-latest')).toBe('crypto');
    expect(datasetOf('historical-price-eod/full')).toBe('market-data-historic');
  });

  it('carries a bulk file into the dataset of the endpoint whose rows it repeats', () => {
    const datasetOf = (path: string) => ALL_ENDPOINTS.find((endpoint) => endpoint.path === path)?.dataset;
    expect(datasetOf('income-statement-bulk')).toBe(datasetOf('income-statement'));
    expect(datasetOf('eod-bulk')).toBe(datasetOf('historical-price-eod/full'));
    expect(datasetOf('rating-bulk')).toBe(datasetOf('ratings-snapshot'));
    expect(datasetOf('etf-holder-bulk')).toBe(datasetOf('etf/holdings'));
  });

  it('is kept by the legacy endpoints, which serve a stable endpoint’s data', () => {
    for (const { route, endpoint } of legacyEndpoints(ENDPOINTS)) {
      const stable = ENDPOINTS.find((candidate) => candidate.path === route.stable);
      expect(endpoint.dataset, route.stable).toBe(stable?.dataset);
    }
  });
});

describe('the dataset catalog', () => {
  it('describes the 17 datasets of the menu, in its order and with its names', () => {
    expect(DATASET_INFO.map((info) => [info.id, info.label])).toEqual(
      DATASETS.map((dataset) => [dataset.id, dataset.label]),
    );
  });

  it('gives each dataset a sentence and a paragraph of its own, without placeholders', () => {
    for (const info of DATASET_INFO) {
      expect(info.summary.length, info.id).toBeGreaterThan(40);
      expect(info.summary.length, info.id).toBeLessThanOrEqual(160);
      expect(info.about.length, info.id).toBeGreaterThan(300);
      expect(info.about, info.id).not.toMatch(/lorem|ipsum|coming soon|TODO|TBD/i);
    }
    expect(new Set(DATASET_INFO.map((info) => info.about)).size).toBe(DATASET_INFO.length);
  });

  it('samples each dataset with one of its own endpoints, asked a query the endpoint accepts', () => {
    for (const info of DATASET_INFO) {
      const endpoint = sampleEndpoint(info);
      expect(endpoint.dataset, info.id).toBe(info.id);
      expect(endpoint.bulk, info.id).toBeUndefined();
      expect(endpoint.workbook, info.id).toBeUndefined();
      expect(() => sampleParams(info.sample, endpoint), info.id).not.toThrow();
    }
  });

  it('shows in each sample only fields its endpoint answers', () => {
    for (const info of DATASET_INFO) {
      const fields = Object.keys(sampleEndpoint(info).row.shape);
      expect(info.sample.columns.length, info.id).toBeGreaterThanOrEqual(3);
      for (const column of info.sample.columns) expect(fields, `${info.id}: ${column}`).toContain(column);
    }
  });

  it('finds a dataset by its address’s id, and no other', () => {
    expect(datasetInfo('crypto')?.label).toBe('Crypto');
    expect(datasetInfo('bonds')).toBeUndefined();
    expect(datasetInfo('toString')).toBeUndefined();
  });
});

describe('the datasets pages’ routes', () => {
  it('are no longer pending, the index and the 17 pages alike', () => {
    expect(PENDING_ROUTES.filter((route) => route.startsWith('/datasets'))).toEqual([]);
    expect(isPending('/datasets')).toBe(false);
    expect(isPending('/datasets/esg')).toBe(false);
  });

  it('send the 17 dataset pages, and nothing else under /datasets, through the page cache', () => {
    for (const dataset of DATASETS) expect(isDatasetPagePath(`/datasets/${dataset.id}`)).toBe(true);
    expect(isDatasetPagePath('/datasets')).toBe(false);
    expect(isDatasetPagePath('/datasets/bonds')).toBe(false);
  });
});

describe('the datasets index', () => {
  it('lists every dataset once, under the categories in their order', () => {
    const sections = datasetIndex();
    expect(sections.map((section) => section.category)).toEqual([...DATASET_CATEGORIES]);
    const ids = sections.flatMap((section) => section.datasets.map((dataset) => dataset.id));
    expect(ids.toSorted()).toEqual(DATASETS.map((dataset) => dataset.id).toSorted());
    for (const section of sections) expect(section.datasets.length, section.category).toBeGreaterThan(0);
  });

  it('counts each dataset’s endpoints and names the cheapest plan that opens one', () => {
    const all = datasetIndex().flatMap((section) => section.datasets);
    const historic = all.find((dataset) => dataset.id === 'market-data-historic');
    expect(historic?.endpoints).toBe(datasetEndpoints('market-data-historic').length);
    expect(historic?.plan).toBe('Every plan');
    expect(all.find((dataset) => dataset.id === 'commodity')?.plan).toBe('Every plan');
    expect(historic?.href).toBe('/datasets/market-data-historic');
  });

  it('lets the search find a dataset by its name, its summary or an endpoint’s path', () => {
    const all = datasetIndex().flatMap((section) => section.datasets);
    const found = (query: string) =>
      all.filter((dataset) => matchesQuery(dataset.keywords, query)).map((dataset) => dataset.id);
    expect(found('crypto')).toContain('crypto');
    expect(found('treasury')).toContain('economics');
    expect(found('insider-trading/latest')).toEqual(['ownership-senate-insider']);
    expect(found('Transcript CALL')).toContain('earnings-call-transcripts');
    expect(found('')).toHaveLength(17);
    expect(found('no such data at all')).toEqual([]);
  });

  it('words the search’s outcome for a screen reader', () => {
    expect(queryWords('  Insider,  trades ')).toEqual(['insider', 'trades']);
    expect(searchStatus('', 17)).toBe('');
    expect(searchStatus('esg', 1)).toBe('1 dataset matches “esg”.');
    expect(searchStatus('quotes', 4)).toBe('4 datasets match “quotes”.');
    expect(searchStatus('bonds', 0)).toBe('No dataset matches “bonds”.');
  });
});

describe('a dataset page’s figures', () => {
  it('names the cheapest plan of an endpoint’s tier', () => {
    expect(planText(0)).toBe('Every plan');
    expect(planText(1)).toBe('Starter and above');
    expect(planText(2)).toBe('Professional and above');
  });

  it('counts history in years, months or fiscal years', () => {
    expect(yearsText('2006-01-03', '2026-11-20')).toBe('20.9 years');
    expect(yearsText('2026-05-01', '2026-11-20')).toBe('7 months');
    expect(yearsText('2021', '2025')).toBe('5 fiscal years');
  });

  it('shows the history of dated data and only the latest session of live data', () => {
    const history = coverageFacts({
      covered: 1234,
      coveredUnit: 'securities',
      records: null,
      recordsUnit: '',
      first: '2016-01-04',
      last: '2026-11-20',
      history: true,
    });
    expect(history.map((fact) => fact.label)).toEqual([
      'Securities covered',
      'History',
      'First date',
      'Last date',
    ]);
    expect(history[0]?.value).toBe('1,234');
    expect(history.at(-1)).toMatchObject({ value: 'Nov 20, 2026', datetime: '2026-11-20' });
    const live = coverageFacts({
      covered: 12,
      coveredUnit: 'securities',
      records: 40,
      recordsUnit: 'statements filed',
      first: '2016-01-04',
      last: '2026-11-20',
      history: false,
    });
    expect(live.map((fact) => fact.label)).toEqual([
      'Securities covered',
      'Latest session',
      'Statements filed',
    ]);
  });

  it('groups the endpoints’ update cadences, the most common first', () => {
    const cadences = datasetCadences(datasetEndpoints('market-data-historic'));
    expect(cadences[0]?.label).toBe('End of day');
    expect(cadences.map((cadence) => cadence.label)).toContain('Intraday');
    expect(cadences.reduce((sum, cadence) => sum + cadence.endpoints, 0)).toBe(
      datasetEndpoints('market-data-historic').length,
    );
  });

  it('writes sample cells as a reader expects: grouped figures, plain years, cut long texts', () => {
    expect(sampleCell('volume', 165085854)).toEqual({ text: '165.09M', numeric: true });
    expect(sampleCell('price', 0.65304)).toEqual({ text: '0.653', numeric: true });
    expect(sampleCell('fiscalYear', 2026)).toEqual({ text: '2026', numeric: true });
    expect(sampleCell('name', null).text).toBe('–');
    expect(sampleCell('content', 'x'.repeat(200)).text).toHaveLength(60);
  });
});
