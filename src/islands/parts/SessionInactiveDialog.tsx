import { useStore } from '@nanostores/react';
import type { ReactNode } from 'react';
import { $sessionInactive, closeSessionInactive, refreshNow } from '../../lib/stores/ui.ts';
import { Dialog } from './Dialog.tsx';

/**
 * Asks a visitor who has been away to reload, because prices and figures on screen may be stale
 * (SPEC §8).
 */
export function SessionInactiveDialog(): ReactNode {
  const { open } = useStore($sessionInactive, { ssr: 'initial' });
  return (
    <Dialog
      open={open}
      onClose={closeSessionInactive}
      title="Stay Ahead with Fresh Data!"
      description="Your session has been inactive. For the latest financial insights, please refresh."
      actions={
        <button type="button" className="btn btn-primary" onClick={refreshNow} data-autofocus>
          Refresh Now
        </button>
      }
    />
  );
}
