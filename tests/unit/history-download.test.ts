import { beforeEach, describe, expect, it, vi } from 'vitest';

const downloadMock = vi.hoisted(() => vi.fn());

vi.mock('../../src/lib/download.ts', () => ({ downloadFromUrl: downloadMock }));

const { $historyDownload, downloadHistory, historyDownloadKey } =
  await import('../../src/lib/stores/history-download.ts');
const { $auth, closePremiumPopup } = await import('../../src/lib/stores/auth.ts');

const RANGE = { from: '2026-01-01', to: '2026-02-01' };
const ROWS = [{ date: '2026-01-30', close: 3 }];

describe('downloadHistory', () => {
  beforeEach(() => {
    downloadMock.mockReset();
    $historyDownload.set({ status: 'idle', format: null, message: '', key: '' });
  });

  it('downloads every row of the range from the history endpoint under the range’s file name', async () => {
    downloadMock.mockResolvedValue({ filename: 'x', usedFallback: false, error: '', status: 0 });
    await downloadHistory({
      symbol: '^GSPC',
      range: RANGE,
      format: 'csv',
      columns: ['date', 'close'],
      fallback: ROWS,
    });
    expect(downloadMock).toHaveBeenCalledWith(
      '/api/market/history?symbol=%5EGSPC&from=2026-01-01&to=2026-02-01&format=csv',
      {
        format: 'csv',
        filename: '^GSPC-historical-2026-01-01-2026-02-01.csv',
        fallback: ROWS,
        columns: ['date', 'close'],
      },
    );
    expect($historyDownload.get()).toMatchObject({
      status: 'done',
      message: 'Downloaded ^GSPC-historical-2026-01-01-2026-02-01.csv.',
      key: historyDownloadKey('^GSPC', RANGE),
    });
  });

  it('says when only the rows of the page could be saved', async () => {
    downloadMock.mockResolvedValue({
      filename: 'x',
      usedFallback: true,
      error: 'Server trouble.',
      status: 500,
    });
    await downloadHistory({
      symbol: 'AAPL',
      range: RANGE,
      format: 'json',
      columns: ['date'],
      fallback: ROWS,
    });
    const state = $historyDownload.get();
    expect(state.status).toBe('fallback');
    expect(state.message).toContain('Server trouble.');
    expect(state.message).toContain('only the 1 row shown on this page');
  });

  it('offers a subscription when the plan does not cover the range, and saves the page’s rows', async () => {
    closePremiumPopup();
    const refusal = 'Your Public plan does not cover daily history before 2025-11-25.';
    downloadMock.mockResolvedValue({ filename: 'x', usedFallback: true, error: refusal, status: 402 });
    await downloadHistory({ symbol: 'AAPL', range: RANGE, format: 'csv', columns: ['date'], fallback: ROWS });
    expect($auth.get().premiumPopup).not.toBe(false);
    expect($historyDownload.get().message).toContain(refusal);
  });

  it('does not offer a subscription when the server was merely unavailable', async () => {
    closePremiumPopup();
    downloadMock.mockResolvedValue({ filename: 'x', usedFallback: true, error: 'Try later.', status: 503 });
    await downloadHistory({ symbol: 'AAPL', range: RANGE, format: 'csv', columns: ['date'], fallback: ROWS });
    expect($auth.get().premiumPopup).toBe(false);
  });

  it('ignores a second click while a download runs', async () => {
    let finish: (value: unknown) => void = () => undefined;
    downloadMock.mockReturnValue(new Promise((resolve) => (finish = resolve)));
    const first = downloadHistory({ symbol: 'AAPL', range: RANGE, format: 'csv', columns: [], fallback: [] });
    await downloadHistory({ symbol: 'AAPL', range: RANGE, format: 'json', columns: [], fallback: [] });
    expect(downloadMock).toHaveBeenCalledTimes(1);
    finish({ filename: 'x', usedFallback: false, error: '', status: 0 });
    await first;
    expect($historyDownload.get().status).toBe('done');
  });
});
