import { useStore } from '@nanostores/react';
import type { ReactNode } from 'react';
import { SESSION_INACTIVE_DIALOG } from '../../lib/messages.ts';
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
      title={SESSION_INACTIVE_DIALOG.title}
      description={SESSION_INACTIVE_DIALOG.text}
      actions={
        <button type="button" className="btn btn-primary" onClick={refreshNow} data-autofocus>
          {SESSION_INACTIVE_DIALOG.button}
        </button>
      }
    />
  );
}
