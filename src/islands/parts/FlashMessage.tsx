import { useStore } from '@nanostores/react';
import type { ReactNode } from 'react';
import { $auth, clearFlash, type FlashMessage as Flash } from '../../lib/stores/auth.ts';
import './FlashMessage.css';

const KEYS: ['flashMessage'] = ['flashMessage'];

/** Each message object gets its own number, so the same text shown twice is inserted afresh. */
const messageKeys = new WeakMap<Flash, number>();
let lastKey = 0;

function keyOf(message: Flash): number {
  let key = messageKeys.get(message);
  if (key === undefined) {
    key = ++lastKey;
    messageKeys.set(message, key);
  }
  return key;
}

export interface FlashMessageProps {
  /**
   * `page` is the banner at the top of the viewport. `dialog` is the copy inside a modal dialog:
   * while a modal is open the rest of the page is inert, so a banner outside it could be neither
   * reached nor announced, and the page banner steps aside.
   */
  placement?: 'page' | 'dialog';
}

/**
 * Outcomes of what the visitor just did (SPEC §4, §8). Both live regions are always rendered,
 * because screen readers only announce changes to a region that already exists: errors go to the
 * assertive one, successes to the polite one.
 */
export function FlashMessage({ placement = 'page' }: FlashMessageProps): ReactNode {
  const { flashMessage } = useStore($auth, { keys: KEYS, ssr: 'initial' });
  const classes = ['flash-message', `flash-message--${placement}`];
  if (flashMessage) classes.push('flash-message--shown', `flash-message--${flashMessage.type}`);

  return (
    <div className={classes.join(' ')}>
      <div role="alert" aria-atomic="true" className="flash-message__text">
        {flashMessage?.type === 'error' ? <p key={keyOf(flashMessage)}>{flashMessage.text}</p> : null}
      </div>
      <div role="status" aria-live="polite" aria-atomic="true" className="flash-message__text">
        {flashMessage?.type === 'success' ? <p key={keyOf(flashMessage)}>{flashMessage.text}</p> : null}
      </div>
      {flashMessage ? (
        <button
          type="button"
          className="flash-message__dismiss"
          aria-label="Dismiss message"
          onClick={clearFlash}
        >
          <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" width="18" height="18">
            <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
      ) : null}
    </div>
  );
}
