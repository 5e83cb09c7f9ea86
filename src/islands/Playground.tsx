import { useStore } from '@nanostores/react';
import { useEffect, useId, useMemo, useState, type SyntheticEvent, type KeyboardEvent } from 'react';
import { chooseLanguage, chosenLanguage } from '../lib/docs/code-tabs.ts';
import { DEFAULT_CODE_LANGUAGE, type CodeLanguage } from '../lib/docs/code-languages.ts';
import { formatDate, formatNumber } from '../lib/format.ts';
import {
  errorMessageOf,
  formatBytes,
  groupedEndpoints,
  isLimitHeader,
  maskKey,
  refusalAdvice,
  requestUrl,
  seriesOf,
  withKeyText,
  type PlaygroundCatalogue,
  type PlaygroundEndpoint,
} from '../lib/playground.ts';
import { AUTH_LINKS } from '../lib/routes.ts';
import { $signedIn } from '../lib/stores/auth.ts';
import { $dataTier } from '../lib/stores/plan-access.ts';
import { $apiUrl, $keyOwner } from '../lib/stores/data-api-access.ts';
import {
  $codeSamples,
  $copyNote,
  $endpoint,
  $playground,
  $problems,
  $recent,
  clearRecent,
  copySample,
  openRecent,
  selectEndpoint,
  send,
  setParam,
  setView,
  shownCode,
  startPlayground,
  type AnswerView,
  type ViewerAnswer,
} from '../lib/stores/playground.ts';
import { AnswerStatus, RefusalBox } from './parts/AnswerStatus.tsx';
import { JsonTree } from './parts/JsonTree.tsx';
import { ResultTable } from './parts/ResultTable.tsx';
import { SeriesChart } from './parts/SeriesChart.tsx';
import { ParamField } from './parts/ParamField.tsx';
import { tableFromAnswer } from '../lib/result-table.ts';
import { saveBlob } from '../lib/download.ts';
import '../styles/code-samples.css';
import './Playground.css';

interface Props {
  catalogue: PlaygroundCatalogue;
}

const STATUS_LINK = '/developer/docs/status/';

/** The endpoint list: type-ahead search over every endpoint, grouped as the reference is. */
function EndpointPicker({
  endpoints,
  current,
}: {
  endpoints: readonly PlaygroundEndpoint[];
  current: string;
}) {
  const [filter, setFilter] = useState('');
  const tier = useStore($dataTier);
  const groups = useMemo(() => groupedEndpoints(endpoints, filter), [endpoints, filter]);
  const count = groups.reduce((sum, group) => sum + group.endpoints.length, 0);
  return (
    <nav className="playground-picker" aria-label="Endpoints">
      <label className="param-label" htmlFor="playground-filter">
        Find an endpoint
      </label>
      <input
        id="playground-filter"
        type="search"
        className="param-input"
        placeholder="quote, income, news…"
        value={filter}
        autoComplete="off"
        onChange={(event) => {
          setFilter(event.target.value);
        }}
      />
      <p className="visually-hidden" role="status">
        {filter === '' ? '' : `${String(count)} endpoints match`}
      </p>
      <div className="playground-groups">
        {groups.length === 0 && <p className="playground-note">No endpoint matches “{filter}”.</p>}
        {groups.map((group) => (
          <section key={group.group} className="playground-group">
            <h2 className="playground-group-title">{group.group}</h2>
            <ul>
              {group.endpoints.map((endpoint) => {
                const locked = endpoint.tier > tier;
                return (
                  <li key={endpoint.id}>
                    <button
                      type="button"
                      className="playground-endpoint"
                      aria-current={endpoint.id === current ? 'true' : undefined}
                      onClick={() => {
                        selectEndpoint(endpoint.id);
                      }}
                    >
                      <span className="playground-endpoint-summary">{endpoint.summary}</span>
                      <span className="playground-endpoint-path">{endpoint.id}</span>
                      {locked && (
                        <span className="badge playground-plan-badge">
                          <span className="visually-hidden">Needs the </span>
                          {endpoint.plan?.name ?? endpoint.tierName}
                          <span className="visually-hidden"> plan</span>
                        </span>
                      )}
                    </button>
                  </li>
                );
              })}
            </ul>
          </section>
        ))}
      </div>
    </nav>
  );
}

/** The refusal in the API's words, and what to do about it. */
function Refusal({ answer, signedIn }: { answer: ViewerAnswer; signedIn: boolean }) {
  const retryAfter = answer.headers.find(([name]) => name.toLowerCase() === 'retry-after')?.[1] ?? null;
  const message = errorMessageOf(answer.body) ?? answer.text.slice(0, 500);
  return (
    <RefusalBox message={message} advice={refusalAdvice(answer.status, signedIn, retryAfter)}>
      {answer.status === 402 && (
        <a className="btn btn-primary btn-sm" href={AUTH_LINKS.pricing}>
          See plans and pricing
        </a>
      )}
      {(answer.status === 401 || answer.status === 403 || answer.status === 429) && signedIn && (
        <a className="btn btn-secondary btn-sm" href={AUTH_LINKS.dashboard}>
          Open your dashboard
        </a>
      )}
      {answer.status >= 500 && (
        <a className="btn btn-secondary btn-sm" href={STATUS_LINK}>
          See the status page
        </a>
      )}
    </RefusalBox>
  );
}

const VIEWS: readonly { view: AnswerView; label: string }[] = [
  { view: 'json', label: 'JSON' },
  { view: 'table', label: 'Table' },
  { view: 'chart', label: 'Chart' },
  { view: 'headers', label: 'Headers' },
];

/** A file answer (an Excel workbook): named, sized and saved with a button, never shown as text. */
function FileAnswer({ file, bytes }: { file: { blob: Blob; name: string }; bytes: number }) {
  return (
    <p className="playground-note">
      The answer is a file, {file.name} ({formatBytes(bytes)}), to open in a spreadsheet.{' '}
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        onClick={() => {
          saveBlob(file.blob, file.name);
        }}
      >
        Download {file.name}
      </button>
    </p>
  );
}

/** The answer: status, time, size and budgets, then the body as JSON, table or chart, or the headers. */
function AnswerPanel({
  answer,
  endpoint,
  view,
}: {
  answer: ViewerAnswer;
  endpoint: PlaygroundEndpoint;
  view: AnswerView;
}) {
  const signedIn = useStore($signedIn);
  const tabsId = useId();
  const table = useMemo(
    (): ReturnType<typeof tableFromAnswer> =>
      answer.file === undefined
        ? tableFromAnswer(answer.json ? answer.body : answer.text)
        : {
            kind: 'none',
            reason: `The answer is a file, not rows: download ${answer.file.name} to open it.`,
          },
    [answer],
  );
  const series = useMemo(
    () => (endpoint.chart && table.kind === 'table' ? seriesOf(table.rows) : { points: [], intraday: false }),
    [endpoint, table],
  );
  const views = VIEWS.filter((item) => item.view !== 'chart' || endpoint.chart);
  const limits = answer.headers.filter(([name]) => isLimitHeader(name));
  const refused = answer.status >= 400;
  const fileName = `${answer.endpointId.replaceAll('/', '-')}.csv`;
  return (
    <section className="playground-answer" aria-labelledby={`${tabsId}-title`}>
      <h2 id={`${tabsId}-title`} className="playground-section-title">
        Answer
      </h2>
      <AnswerStatus status={answer.status} statusText={answer.statusText} ms={answer.ms}>
        <span>{formatBytes(answer.bytes)}</span>
        {table.kind === 'table' && <span>{formatNumber(table.rows.length)} rows</span>}
      </AnswerStatus>
      {limits.length > 0 && (
        <dl className="playground-limits" aria-label="Call budget headers">
          {limits.map(([name, value]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>
                <code>{value}</code>
              </dd>
            </div>
          ))}
        </dl>
      )}
      {refused && <Refusal answer={answer} signedIn={signedIn} />}
      <div className="playground-views" role="tablist" aria-label="Show the answer as">
        {views.map((item) => (
          <button
            key={item.view}
            type="button"
            role="tab"
            id={`${tabsId}-${item.view}`}
            aria-selected={view === item.view}
            aria-controls={`${tabsId}-panel`}
            tabIndex={view === item.view ? 0 : -1}
            className="playground-view-tab"
            onClick={() => {
              setView(item.view);
            }}
          >
            {item.label}
            {item.view === 'headers' ? ` (${String(answer.headers.length)})` : ''}
          </button>
        ))}
      </div>
      <div
        id={`${tabsId}-panel`}
        role="tabpanel"
        aria-labelledby={`${tabsId}-${view}`}
        className="playground-view"
      >
        {view === 'json' &&
          (answer.file !== undefined ? (
            <FileAnswer file={answer.file} bytes={answer.bytes} />
          ) : answer.json ? (
            <JsonTree value={answer.body} label="Answer as JSON" />
          ) : (
            <pre className="playground-raw" tabIndex={0} aria-label="Answer as text">
              {answer.text.slice(0, 200_000)}
            </pre>
          ))}
        {view === 'table' &&
          (table.kind === 'table' ? (
            <ResultTable answer={answer.body} filename={fileName} label="Answer as a table" />
          ) : (
            <p className="playground-note">{table.reason}</p>
          ))}
        {view === 'chart' &&
          (series.points.length > 1 ? (
            <SeriesChart
              points={series.points}
              intraday={series.intraday}
              label={`Price chart of the answer: ${String(series.points.length)} points`}
            />
          ) : (
            <p className="playground-note">
              The answer holds no price series to draw: send a request that returns rows.
            </p>
          ))}
        {view === 'headers' && (
          <div className="table-scroll" tabIndex={0} role="region" aria-label="Table: answer headers">
            <table className="playground-headers">
              <thead>
                <tr>
                  <th scope="col">Header</th>
                  <th scope="col">Value</th>
                </tr>
              </thead>
              <tbody>
                {answer.headers.map(([name, value]) => (
                  <tr key={name} className={isLimitHeader(name) ? 'playground-limit-row' : undefined}>
                    <td>
                      <code>{name}</code>
                      {isLimitHeader(name) && <span className="badge">Call budget</span>}
                    </td>
                    <td>
                      <code>{value}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </section>
  );
}

/** The request as code in every documentation language, with the reader's key masked on screen. */
function CodePanel() {
  const samples = useStore($codeSamples);
  const note = useStore($copyNote);
  useStore($keyOwner);
  // The language chosen on any documentation page, kept for every page (`<html data-code-lang>`).
  const [language, setLanguage] = useState<CodeLanguage>(DEFAULT_CODE_LANGUAGE);
  useEffect(() => {
    setLanguage(chosenLanguage());
  }, []);
  const choose = (next: CodeLanguage, focus: boolean): void => {
    chooseLanguage(next);
    setLanguage(next);
    if (focus) document.getElementById(`playground-tab-${next}`)?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const ids = samples.samples.map((sample) => sample.language);
    const index = ids.indexOf(language);
    const next =
      event.key === 'ArrowRight'
        ? ids[(index + 1) % ids.length]
        : event.key === 'ArrowLeft'
          ? ids[(index - 1 + ids.length) % ids.length]
          : event.key === 'Home'
            ? ids[0]
            : event.key === 'End'
              ? ids.at(-1)
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    choose(next, true);
  };
  return (
    <section className="playground-code" aria-labelledby="playground-code-title">
      <h2 id="playground-code-title" className="playground-section-title">
        Request as code
      </h2>
      {samples.status === 'error' ? (
        <p className="playground-note">
          The code samples could not be written just now: change a parameter to try again.
        </p>
      ) : (
        <div className="code-samples" aria-busy={samples.status === 'loading'}>
          <div
            className="code-tabs"
            role="tablist"
            aria-label="Language of the request"
            onKeyDown={onKeyDown}
          >
            {samples.samples.map((sample) => (
              <button
                key={sample.language}
                type="button"
                role="tab"
                className="code-tab"
                id={`playground-tab-${sample.language}`}
                aria-controls={`playground-panel-${sample.language}`}
                aria-selected={sample.language === language}
                tabIndex={sample.language === language ? 0 : -1}
                data-lang={sample.language}
                onClick={() => {
                  choose(sample.language, false);
                }}
              >
                {sample.label}
              </button>
            ))}
          </div>
          {samples.samples.map((sample) => (
            <div
              key={sample.language}
              role="tabpanel"
              className="code-panel"
              id={`playground-panel-${sample.language}`}
              aria-labelledby={`playground-tab-${sample.language}`}
              data-lang={sample.language}
            >
              <button
                type="button"
                className="btn btn-secondary btn-sm playground-copy"
                onClick={() => {
                  void copySample(sample.language);
                }}
              >
                Copy {sample.label}
              </button>
              <pre tabIndex={0} aria-label={`${sample.label} request`}>
                <code
                  className={`hljs language-${sample.language}`}
                  dangerouslySetInnerHTML={{ __html: shownCode(sample.html) }}
                />
              </pre>
            </div>
          ))}
        </div>
      )}
      <p className="visually-hidden" role="status">
        {note}
      </p>
    </section>
  );
}

/** The requests sent lately from this browser. */
function RecentList() {
  const recent = useStore($recent);
  if (recent.length === 0) return null;
  return (
    <section className="playground-recent" aria-labelledby="playground-recent-title">
      <h2 id="playground-recent-title" className="playground-group-title">
        Recent requests
      </h2>
      <ul>
        {recent.map((entry) => (
          <li key={entry.search}>
            <button
              type="button"
              className="playground-endpoint"
              onClick={() => {
                openRecent(entry);
              }}
            >
              <span className="playground-endpoint-summary">{entry.label}</span>
              <span className="playground-endpoint-path">
                {entry.status} · {formatDate(entry.sentAt)}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="btn btn-secondary btn-sm" onClick={clearRecent}>
        Clear recent requests
      </button>
    </section>
  );
}

/** What a signed-out visitor's requests may do, and the way to a key of their own. */
function VisitorNote({ catalogue }: { catalogue: PlaygroundCatalogue }) {
  const { perMinute, perDay, historyYears } = catalogue.visitor;
  return (
    <aside className="playground-visitor" aria-label="Trying the API without a key">
      <p>
        <strong>You are trying the API without a key.</strong> Requests use the site’s visitor access: the
        free sample’s symbols
        {historyYears === null
          ? ''
          : `, ${String(historyYears)} year${historyYears === 1 ? '' : 's'} of history`}
        {perMinute === null ? '' : `, ${String(perMinute)} calls a minute`}
        {perDay === null ? '' : ` and ${String(perDay)} a day`}.
      </p>
      <p>
        <a className="btn btn-primary btn-sm" href={AUTH_LINKS.signUp}>
          Get a free API key
        </a>{' '}
        or <a href={AUTH_LINKS.signIn}>sign in</a> to send requests with your own key and plan.
      </p>
    </aside>
  );
}

/**
 * The API viewer: pick an endpoint, fill in its parameters, send it with your own key and read the
 * answer as JSON, a table or a chart, with the request written as code. Every endpoint, parameter
 * and plan comes from the catalogue the page was built with (the endpoint definitions).
 */
export function Playground({ catalogue }: Props) {
  const state = useStore($playground);
  const endpoint = useStore($endpoint);
  const problems = useStore($problems);
  const owner = useStore($keyOwner);
  const tier = useStore($dataTier);
  const apiUrl = useStore($apiUrl);

  useEffect(() => startPlayground(catalogue), [catalogue]);

  if (endpoint === null) return null;
  const locked = endpoint.tier > tier;
  const shownUrl = requestUrl(apiUrl === '' ? catalogue.apiUrl : apiUrl, endpoint, state.values);
  const onSubmit = (event: SyntheticEvent): void => {
    event.preventDefault();
    void send();
  };
  const answer = state.answer !== null && state.answer.endpointId === endpoint.id ? state.answer : null;

  return (
    <div className="playground">
      <div className="playground-side">
        <EndpointPicker endpoints={catalogue.endpoints} current={endpoint.id} />
        <RecentList />
      </div>
      <div className="playground-main">
        {owner.kind === 'visitor' && <VisitorNote catalogue={catalogue} />}
        <form
          className="playground-request"
          onSubmit={onSubmit}
          noValidate
          aria-labelledby="playground-endpoint-title"
        >
          <div className="playground-request-head">
            <p className="playground-group-name">{endpoint.group}</p>
            <h2 id="playground-endpoint-title" className="playground-endpoint-title">
              {endpoint.summary}
            </h2>
            <p className="playground-url">
              <span className="playground-method">GET</span>
              <code>{owner.kind === 'account' ? withKeyText(shownUrl, maskKey(owner.key)) : shownUrl}</code>
            </p>
            <p className="playground-description">{endpoint.description}</p>
            <p className="playground-facts">
              <span className="badge">{endpoint.tierName} data</span>
              {endpoint.free && <span className="badge">Free of charge</span>}
              <a href={endpoint.reference}>Reference</a>
            </p>
            {locked && (
              <p className="playground-locked">
                Your plan does not include {endpoint.tierName} data
                {endpoint.plan === null ? '' : `: it needs the ${endpoint.plan.name} plan`}. Sending shows the
                API’s refusal; <a href={AUTH_LINKS.pricing}>compare plans</a>.
              </p>
            )}
          </div>
          {endpoint.params.length === 0 ? (
            <p className="playground-note">This endpoint takes no parameters besides your key.</p>
          ) : (
            <fieldset className="param-fields">
              <legend className="visually-hidden">Parameters</legend>
              {endpoint.params.map((param) => (
                <ParamField
                  key={`${endpoint.id}-${param.name}`}
                  param={param}
                  value={state.values[param.name] ?? ''}
                  problem={state.checked ? problems[param.name] : undefined}
                  onChange={(value) => {
                    setParam(param.name, value);
                  }}
                />
              ))}
            </fieldset>
          )}
          <div className="playground-send">
            <button type="submit" className="btn btn-primary" disabled={state.sending}>
              {state.sending ? 'Sending…' : 'Send request'}
            </button>
            <span className="playground-key">
              {owner.kind === 'account' ? `With your key ${maskKey(owner.key)}` : 'With the visitor access'}
            </span>
          </div>
          {state.checked && Object.keys(problems).length > 0 && (
            <p className="param-problem" role="alert">
              Nothing was sent: correct the marked parameters first.
            </p>
          )}
        </form>
        {state.failure !== '' && (
          <p className="answer-refusal" role="alert">
            {state.failure}
          </p>
        )}
        {answer !== null && <AnswerPanel answer={answer} endpoint={endpoint} view={state.view} />}
        <CodePanel />
      </div>
    </div>
  );
}
