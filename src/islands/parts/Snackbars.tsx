import { useStore } from '@nanostores/react';
import type { ReactNode } from 'react';
import { $snackbars, hideSnackbar, pauseSnackbar, resumeSnackbar } from '../../lib/stores/snackbar.ts';
import './Snackbars.css';

/**
 * The stack of snackbars at the bottom centre of the screen (SPEC §4). The list is a polite live
 * region that is always rendered, so each new snackbar is read out without interrupting, and only
 * additions are announced. A snackbar stays while hovered or focused so its action can be reached.
 */
export function Snackbars(): ReactNode {
  const snackbars = useStore($snackbars, { ssr: 'initial' });
  return (
    <div role="status" aria-live="polite" aria-relevant="additions" className="snackbars">
      {snackbars.map(({ id, text, type, action }) => (
        <div
          key={id}
          className={`snackbar snackbar--${type ?? 'info'}`}
          onMouseEnter={() => {
            pauseSnackbar(id);
          }}
          onMouseLeave={() => {
            resumeSnackbar(id);
          }}
          onFocus={() => {
            pauseSnackbar(id);
          }}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget)) resumeSnackbar(id);
          }}
        >
          <p className="snackbar__text">{text}</p>
          {action ? (
            <button
              type="button"
              className="snackbar__action"
              onClick={() => {
                action.onSelect();
                hideSnackbar(id);
              }}
            >
              {action.label}
            </button>
          ) : null}
          <button
            type="button"
            className="snackbar__dismiss"
            aria-label="Dismiss notification"
            onClick={() => {
              hideSnackbar(id);
            }}
          >
            <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" width="18" height="18">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
      ))}
    </div>
  );
}
