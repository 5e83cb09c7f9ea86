import { useStore } from '@nanostores/react';
import type { ReactNode } from 'react';
import { PREMIUM_DIALOG } from '../../lib/messages.ts';
import { AUTH_LINKS } from '../../lib/routes.ts';
import { $auth, closePremiumPopup, DEFAULT_PREMIUM_POPUP } from '../../lib/stores/auth.ts';
import { Dialog } from './Dialog.tsx';

const KEYS: ['premiumPopup'] = ['premiumPopup'];

/**
 * The upsell shown when a visitor reaches something their plan does not include (SPEC §8). It
 * lets them carry on where they were or go straight to pricing.
 */
export function PremiumDialog(): ReactNode {
  const { premiumPopup } = useStore($auth, { keys: KEYS, ssr: 'initial' });
  const shown = premiumPopup || DEFAULT_PREMIUM_POPUP;
  return (
    <Dialog
      open={premiumPopup !== false}
      onClose={closePremiumPopup}
      title={shown.title}
      description={shown.text}
      closeOnBackdrop
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={closePremiumPopup} data-autofocus>
            {PREMIUM_DIALOG.keepBrowsing}
          </button>
          <a className="btn btn-primary" href={AUTH_LINKS.pricing} onClick={closePremiumPopup}>
            {PREMIUM_DIALOG.subscribe}
          </a>
        </>
      }
    />
  );
}
