/**
 * The API viewer's model, shared by the server that builds its catalogue from the endpoint
 * definitions (src/server/docs/playground.ts) and the browser that renders it: what an endpoint's
 * form asks for, how a form's values are checked and written into a request and an address, and
 * what the viewer says about an answer. Nothing here knows an endpoint by name: every fact comes
 * from the catalogue.
 */

/** How a parameter is typed in: it picks the form control and the check before sending. */
export type ParamKind = 'symbol' | 'symbols' | 'date' | 'enum' | 'integer' | 'number' | 'boolean' | 'text';

/** One parameter of an endpoint's form. */
export interface PlaygroundParam {
  name: string;
  kind: ParamKind;
  required: boolean;
  description: string;
  /** The values an enumeration allows, in the definition's order. */
  options: string[];
  min?: number;
  max?: number;
  /** The value the API uses when the parameter is left out. */
  defaultValue?: string;
  /** Part of the path (`/api/v3/quote/{symbol}`) rather than the query. */
  inPath?: boolean;
}

/** One endpoint as the viewer offers it. */
export interface PlaygroundEndpoint {
  /** The value of `?endpoint=` that opens it: `quote`, `historical-price-eod/full`. */
  id: string;
  /** The path after the API's base address, `{symbol}` where a path parameter goes: `/stable/quote`. */
  path: string;
  group: string;
  summary: string;
  description: string;
  /** Lowest data tier that may call it, and its name. */
  tier: number;
  tierName: string;
  /** The cheapest plan that opens it; null when no plan on sale does. */
  plan: { code: string; name: string } | null;
  params: PlaygroundParam[];
  /** The example request's values (what "Try it" links fill in). */
  example: Record<string, string>;
  csv: boolean;
  /** Whether its rows are a price series (a date and a close), which the chart view can draw. */
  chart: boolean;
  /** Calls to it cost nothing. */
  free: boolean;
  /** Its reference page. */
  reference: string;
}

/** What a signed-out visitor may call with the site's visitor token. */
export interface VisitorAllowance {
  perMinute: number | null;
  perDay: number | null;
  historyYears: number | null;
}

/** Everything one viewer page needs, built from the endpoint definitions when the page is built. */
export interface PlaygroundCatalogue {
  variant: 'stable' | 'legacy';
  /** The data API's published base address. */
  apiUrl: string;
  endpoints: PlaygroundEndpoint[];
  visitor: VisitorAllowance;
  /** The endpoint opened when the address names none. */
  defaultEndpoint: string;
}

/** A form's values by parameter name; an empty string is a parameter left out. */
export type ParamValues = Record<string, string>;

const SYMBOL_PATTERN = /^[\w.^=-]+$/;
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const NUMBER_PATTERN = /^-?\d+(\.\d+)?$/;

function isRealDate(value: string): boolean {
  if (!DATE_PATTERN.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

function rangeMessage(param: PlaygroundParam, noun: string): string | undefined {
  const { min, max } = param;
  if (min !== undefined && max !== undefined) return `must be ${noun} from ${String(min)} to ${String(max)}`;
  if (min !== undefined) return `must be ${noun} of at least ${String(min)}`;
  if (max !== undefined) return `must be ${noun} of at most ${String(max)}`;
  return undefined;
}

/** Why one value would be refused, in the words the data API uses; undefined when it is fine. */
export function paramProblem(param: PlaygroundParam, raw: string): string | undefined {
  const value = raw.trim();
  if (value === '') return param.required ? 'is required' : undefined;
  switch (param.kind) {
    case 'symbol':
      if (value.length > 20) return 'must be at most 20 characters';
      return SYMBOL_PATTERN.test(value) ? undefined : 'must be a ticker such as AAPL, BRK-B or ^GSPC';
    case 'symbols': {
      const items = value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
      if (items.length === 0) return 'must name at least one ticker';
      if (items.length > 100) return 'can name at most 100 tickers';
      return items.every((item) => item.length <= 20 && SYMBOL_PATTERN.test(item))
        ? undefined
        : 'must list tickers such as AAPL,MSFT';
    }
    case 'date':
      if (!DATE_PATTERN.test(value)) return 'must be a date written YYYY-MM-DD';
      return isRealDate(value) ? undefined : 'is not a real date';
    case 'enum':
      return param.options.includes(value) ? undefined : `must be one of ${param.options.join(', ')}`;
    case 'boolean':
      return value === 'true' || value === 'false' ? undefined : 'must be true or false';
    case 'integer':
    case 'number': {
      const whole = param.kind === 'integer';
      const noun = whole ? 'a whole number' : 'a number';
      if (!NUMBER_PATTERN.test(value) || (whole && value.includes('.'))) return `must be ${noun}`;
      const number = Number(value);
      const outside =
        (param.min !== undefined && number < param.min) || (param.max !== undefined && number > param.max);
      return outside ? rangeMessage(param, noun) : undefined;
    }
    case 'text':
      return undefined;
  }
}

/** Every parameter's problem, by name: what the form shows before anything is sent. */
export function formProblems(endpoint: PlaygroundEndpoint, values: ParamValues): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const param of endpoint.params) {
    const problem = paramProblem(param, values[param.name] ?? '');
    if (problem !== undefined) problems[param.name] = problem;
  }
  return problems;
}

/** The parameters filled in, in the definition's order, trimmed; query ones only. */
export function queryPairs(endpoint: PlaygroundEndpoint, values: ParamValues): [string, string][] {
  return endpoint.params
    .filter((param) => param.inPath !== true)
    .map((param): [string, string] => [param.name, (values[param.name] ?? '').trim()])
    .filter(([, value]) => value !== '');
}

/** A query value as the viewer writes it: encoded, with the commas of symbol lists kept readable. */
export function encodeQueryValue(value: string): string {
  return encodeURIComponent(value).replaceAll('%2C', ',');
}

/** The request's path with its path parameters filled in (`/api/v3/quote/AAPL`); empty ones stay `{symbol}`. */
export function requestPath(endpoint: PlaygroundEndpoint, values: ParamValues): string {
  let path = endpoint.path;
  for (const param of endpoint.params) {
    const value = (values[param.name] ?? '').trim();
    if (param.inPath === true && value !== '')
      path = path.replace(`{${param.name}}`, encodeQueryValue(value));
  }
  return path;
}

/** The request's address without a key: `http://localhost:4322/stable/quote?symbol=AAPL`. */
export function requestUrl(apiUrl: string, endpoint: PlaygroundEndpoint, values: ParamValues): string {
  const query = queryPairs(endpoint, values)
    .map(([name, value]) => `${name}=${encodeQueryValue(value)}`)
    .join('&');
  return `${apiUrl}${requestPath(endpoint, values)}${query === '' ? '' : `?${query}`}`;
}

/** The same address with the key as the last parameter, as a client would send it. */
export function withKey(url: string, key: string): string {
  return withKeyText(url, encodeURIComponent(key));
}

/** The address with a key written as is: the masked key the screen shows. */
export function withKeyText(url: string, keyText: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}apikey=${keyText}`;
}

/** A key as the viewer shows it on screen: its first and last four characters. */
export function maskKey(key: string): string {
  if (key.length <= 8) return '•'.repeat(key.length);
  return `${key.slice(0, 4)}${'•'.repeat(8)}${key.slice(-4)}`;
}

/** What finding an endpoint by its id needs of a catalogue (the viewer's or the explorer's). */
export interface EndpointList<E extends PlaygroundEndpoint = PlaygroundEndpoint> {
  endpoints: readonly E[];
  defaultEndpoint: string;
}

/** The endpoint a viewer address opens: its `endpoint` parameter, or the catalogue's default. */
export function endpointOf<E extends PlaygroundEndpoint>(catalogue: EndpointList<E>, id: string | null): E {
  const found = id === null ? undefined : catalogue.endpoints.find((endpoint) => endpoint.id === id);
  const fallback =
    catalogue.endpoints.find((endpoint) => endpoint.id === catalogue.defaultEndpoint) ??
    catalogue.endpoints[0];
  if (fallback === undefined) throw new Error('The API viewer’s catalogue lists no endpoints.');
  return found ?? fallback;
}

/** What a viewer address holds: the endpoint, and the values of its parameters. */
export interface ViewerRequest<E extends PlaygroundEndpoint = PlaygroundEndpoint> {
  endpoint: E;
  values: ParamValues;
  /** Whether the address named the endpoint (a shared or "Try it" link) rather than falling back. */
  named: boolean;
}

/**
 * Reads a viewer address (`?endpoint=income-statement&symbol=AAPL`). Parameters the endpoint does
 * not take are ignored; an address naming only the endpoint gets its example's values, so the
 * first Send answers something.
 */
export function requestFromSearch<E extends PlaygroundEndpoint>(
  catalogue: EndpointList<E>,
  search: string,
): ViewerRequest<E> {
  const query = new URLSearchParams(search);
  const id = query.get('endpoint');
  const endpoint = endpointOf(catalogue, id);
  const named = id !== null && endpoint.id === id;
  const values: ParamValues = {};
  let given = false;
  for (const param of endpoint.params) {
    const value = query.get(param.name);
    if (value !== null) {
      values[param.name] = value;
      given = true;
    }
  }
  return { endpoint, values: given ? values : { ...endpoint.example }, named };
}

/** The viewer address of a request: shareable, and what back and forward return to. */
export function searchOf(endpoint: PlaygroundEndpoint, values: ParamValues): string {
  const pairs: [string, string][] = [['endpoint', endpoint.id]];
  for (const param of endpoint.params) {
    const value = (values[param.name] ?? '').trim();
    if (value !== '') pairs.push([param.name, value]);
  }
  return `?${pairs.map(([name, value]) => `${name}=${encodeQueryValue(value).replaceAll('%2F', '/')}`).join('&')}`;
}

/** The endpoints of each group, in catalogue order, keeping those whose words match `filter`. */
export function groupedEndpoints(
  endpoints: readonly PlaygroundEndpoint[],
  filter: string,
): { group: string; endpoints: PlaygroundEndpoint[] }[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const groups = new Map<string, PlaygroundEndpoint[]>();
  for (const endpoint of endpoints) {
    const text = `${endpoint.id} ${endpoint.summary} ${endpoint.group}`.toLowerCase();
    if (!words.every((word) => text.includes(word))) continue;
    const list = groups.get(endpoint.group) ?? [];
    list.push(endpoint);
    groups.set(endpoint.group, list);
  }
  return [...groups].map(([group, list]) => ({ group, endpoints: list }));
}

/** `1.2 kB`, `5.4 MB`: an answer's size as the viewer shows it. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${String(bytes)} B`;
  const units = ['kB', 'MB', 'GB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit] ?? 'GB'}`;
}

/** The headers the viewer marks: the call budgets and when to retry. */
export function isLimitHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith('ratelimit') || lower === 'retry-after';
}

/** The refusal's message of a data API answer (`{"Error Message": "…"}`), if it is one. */
export function errorMessageOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const message = (body as Record<string, unknown>)['Error Message'];
  return typeof message === 'string' ? message : undefined;
}

/** What the reader can do about a refusal, by status; the API's own message says what was wrong. */
export function refusalAdvice(status: number, signedIn: boolean, retryAfter: string | null): string {
  if (status === 400) return 'Correct the parameter the message names, then send again.';
  if (status === 401)
    return signedIn
      ? 'Your key was not accepted: reload the page to use your current key, which your dashboard shows.'
      : 'The visitor token was not accepted: reload the page to get a new one, or sign in to use your own key.';
  if (status === 402)
    return 'Your plan does not include this request. The message names the plan that does; compare plans on the pricing page.';
  if (status === 403)
    return 'Your key cannot be used yet: verify your email address from the dashboard, or contact support if the account is blocked.';
  if (status === 404)
    return 'Nothing was found for these parameters: check the symbol or the values asked for.';
  if (status === 429)
    return retryAfter === null
      ? 'A call limit is reached: wait a little, then send again. Your dashboard shows your usage.'
      : `A call limit is reached: send again in ${retryAfter} seconds. Your dashboard shows your usage.`;
  if (status >= 500) return 'The data API is having trouble: see the status page, and try again shortly.';
  return 'The request was refused; the message says why.';
}

/** One point of a price series as the chart takes it: seconds of the exchange-local clock read as UTC. */
export interface SeriesPoint {
  time: number;
  value: number;
  open?: number;
  high?: number;
  low?: number;
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * The price series in an answer's rows (a date and a close, or a price), oldest first, one point
 * per time; open, high and low when every row has them. Empty when the rows are not a series.
 */
export function seriesOf(rows: readonly unknown[]): { points: SeriesPoint[]; intraday: boolean } {
  const byTime = new Map<number, SeriesPoint>();
  let intraday = false;
  for (const row of rows) {
    if (typeof row !== 'object' || row === null) continue;
    const record = row as Record<string, unknown>;
    const date = record.date;
    const value = finite(record.close) ?? finite(record.price);
    if (typeof date !== 'string' || value === undefined) continue;
    const time = Date.parse(
      date.length <= 10 ? `${date}T00:00:00Z` : `${date.slice(0, 19).replace(' ', 'T')}Z`,
    );
    if (Number.isNaN(time)) continue;
    if (date.length > 10) intraday = true;
    const point: SeriesPoint = { time: time / 1000, value };
    const open = finite(record.open);
    const high = finite(record.high);
    const low = finite(record.low);
    if (open !== undefined && high !== undefined && low !== undefined)
      Object.assign(point, { open, high, low });
    byTime.set(point.time, point);
  }
  const points = [...byTime.values()].sort((a, b) => a.time - b.time);
  return { points, intraday };
}
