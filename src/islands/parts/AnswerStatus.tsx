import type { ReactNode } from 'react';
import { formatNumber } from '../../lib/format.ts';
import './AnswerStatus.css';

/** How a status reads at a glance: answered, refused by the API, or failed on its side. */
function statusTone(status: number): 'ok' | 'refused' | 'failed' {
  if (status < 300) return 'ok';
  if (status < 500) return 'refused';
  return 'failed';
}

/**
 * A data API answer's status line: the HTTP status as a coloured chip and the time it took, then
 * whatever else the caller measures (size, rows). Shared by the API viewer and the quickstart's
 * "Run it", so an answer reads the same wherever the site sends a request.
 */
export function AnswerStatus({
  status,
  statusText,
  ms,
  children,
}: {
  status: number;
  statusText: string;
  ms: number;
  children?: ReactNode;
}): ReactNode {
  return (
    <p className="answer-status">
      <span className={`answer-status__code answer-status__code--${statusTone(status)}`}>
        {status} {statusText}
      </span>
      <span>{formatNumber(ms)} ms</span>
      {children}
    </p>
  );
}

/**
 * A refusal or a failure explained: the API's own message (or the browser's), what to do about it,
 * and the links or buttons that do it. Announced as an alert.
 */
export function RefusalBox({
  message,
  advice,
  children,
}: {
  message: string;
  advice: string;
  children?: ReactNode;
}): ReactNode {
  return (
    <div className="answer-refusal" role="alert">
      <p className="answer-refusal__message">{message}</p>
      {advice !== '' && <p>{advice}</p>}
      <p className="answer-refusal__links">{children}</p>
    </div>
  );
}
