import { useStore } from '@nanostores/react';
import { useEffect, type ReactNode } from 'react';
import { takeRequestedRun } from '../lib/docs/run-it-demand.ts';
import {
  $runIt,
  $runItExplanation,
  $runItKey,
  runIt,
  startRunIt,
  type RunItAnswer,
  type RunItRequest,
} from '../lib/stores/run-it.ts';
import { AnswerStatus, RefusalBox } from './parts/AnswerStatus.tsx';
import { JsonTree } from './parts/JsonTree.tsx';
import { useHydrated } from './parts/use-hydrated.ts';
import './RunIt.css';

interface Props extends RunItRequest {
  /** The data API's address the page was built with; the running server may name another. */
  apiUrl: string;
}

const DATA_SOURCES_PAGE = '/developer/docs/data-sources';

/** The answer of a successful run: its JSON as a tree, its first level open. */
function AnswerBody({ answer }: { answer: RunItAnswer }): ReactNode {
  if (answer.body === undefined) {
    return (
      <pre className="run-it__raw" tabIndex={0} aria-label="Answer as text">
        {answer.text.slice(0, 20_000)}
      </pre>
    );
  }
  return <JsonTree value={answer.body} label="Answer as JSON" defaultExpandDepth={2} />;
}

/**
 * "Run it": sends the documented request to the data API from the reader's browser, with their
 * own key (or the site's visitor access when signed out), and shows the real answer: its status,
 * how long it took and its JSON, labelled when it is demo data; a refusal or a failure is put in
 * words with the way out (verify the address, wait for the limit, retry). Hydrated when first
 * pressed (`client:demand`, src/lib/docs/run-it-demand.ts), so the page loads no framework before.
 */
export function RunIt({ apiUrl, path, query }: Props): ReactNode {
  const state = useStore($runIt);
  const explanation = useStore($runItExplanation);
  const key = useStore($runItKey);
  const hydrated = useHydrated();

  const running = state.status === 'running';
  const run = (): void => {
    void runIt({ path, query });
  };

  useEffect(() => {
    const stop = startRunIt(apiUrl);
    // Hydrated because the reader pressed the server-rendered button: that press runs the request.
    if (takeRequestedRun()) void runIt({ path, query });
    return stop;
  }, [apiUrl, path, query]);

  // The server's words say both cases; once hydrated (on the first press) the island knows whose key it sends.
  const intro = !hydrated
    ? 'Sends this request from your browser, with your API key when you are signed in (else the site’s visitor access), and shows the answer.'
    : key.kind === 'account'
      ? `Sends this request from your browser with your API key (ending in ${key.last4}) and shows the answer.`
      : 'Sends this request from your browser with the site’s visitor access and shows the answer; sign in to use your own key.';
  const answer = state.status === 'answered' ? state.answer : null;
  const announcement =
    answer === null
      ? state.status === 'running'
        ? 'Running the request…'
        : ''
      : `Answered ${String(answer.status)} in ${String(answer.ms)} ms.`;

  return (
    <section className="run-it" aria-label="Run this request" data-pagefind-ignore>
      <div className="run-it__bar">
        <button type="button" className="btn btn-primary" disabled={running} onClick={run} data-run-it>
          {running ? 'Running…' : 'Run it'}
        </button>
        <p className="run-it__intro">{intro}</p>
      </div>
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      {answer !== null && (
        <AnswerStatus status={answer.status} statusText={answer.statusText} ms={answer.ms}>
          {answer.demo && (
            <span className="badge run-it__demo" title="Generated demonstration data, not real market prices">
              Demo data
            </span>
          )}
        </AnswerStatus>
      )}
      {answer?.demo === true && answer.status < 400 && (
        <p className="run-it__note">
          These figures come from the generated demo data set, not from markets (
          <a href={DATA_SOURCES_PAGE}>data sources and demo data</a>).
        </p>
      )}
      {explanation !== null && (
        <RefusalBox message={explanation.message} advice={explanation.advice}>
          {explanation.retry && (
            <button type="button" className="btn btn-primary btn-sm" disabled={running} onClick={run}>
              Try again
            </button>
          )}
          {explanation.links.map((link) => (
            <a key={link.href} className="btn btn-secondary btn-sm" href={link.href}>
              {link.label}
            </a>
          ))}
        </RefusalBox>
      )}
      {answer !== null && answer.status < 400 && <AnswerBody answer={answer} />}
    </section>
  );
}
