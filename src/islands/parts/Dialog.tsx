import {
  useEffect,
  useId,
  useRef,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  type SyntheticEvent,
} from 'react';
import { FlashMessage } from './FlashMessage.tsx';
import './Dialog.css';

export interface DialogProps {
  /** Driven by a store, so the store stays the single source of truth for what is on screen. */
  open: boolean;
  /** Called whenever the visitor dismisses the dialog (Escape, close button, backdrop). */
  onClose: () => void;
  title: ReactNode;
  /** The dialog's main sentence; it becomes the accessible description. */
  description?: ReactNode;
  children?: ReactNode;
  /** The row of buttons at the bottom. */
  actions?: ReactNode;
  /** Hidden for dialogs whose own buttons already offer a way out. */
  showCloseButton?: boolean;
  closeLabel?: string;
  closeOnBackdrop?: boolean;
  className?: string;
}

/**
 * Marks the element that should receive focus when a dialog opens, where the first focusable one
 * (the browser's choice) would be the wrong place to start. Hidden elements are skipped.
 */
export const AUTOFOCUS_ATTRIBUTE = 'data-autofocus';

const FOCUSABLE =
  'a[href], area[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), iframe, summary, [tabindex], [contenteditable="true"]';

/** The elements Tab can reach inside `root`, in order. */
function tabbableIn(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (element) =>
      element.tabIndex >= 0 &&
      element.closest('[hidden], [inert]') === null &&
      element.getClientRects().length > 0,
  );
}

/**
 * The modal primitive of the shell: the native `<dialog>` opened with `showModal()`, which makes
 * the rest of the page inert and handles Escape. On top of that it wraps Tab around its own
 * controls, because a modal `<dialog>` alone lets focus leave for the browser's toolbar, and hands
 * focus back to whatever had it before opening, because not every browser does so reliably when
 * the dialog is closed from script. Flash messages are repeated inside, since the inert page
 * behind it can neither be reached nor announced.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  actions,
  showCloseButton = true,
  closeLabel = 'Close',
  closeOnBackdrop = false,
  className,
}: DialogProps): ReactNode {
  const ref = useRef<HTMLDialogElement>(null);
  const returnFocusTo = useRef<HTMLElement | null>(null);
  const pressStartedOnBackdrop = useRef(false);
  const latest = useRef({ open, onClose });
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    latest.current = { open, onClose };
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      const active = document.activeElement;
      returnFocusTo.current = active instanceof HTMLElement && active !== document.body ? active : null;
      dialog.showModal();
      const preferred = Array.from(dialog.querySelectorAll<HTMLElement>(`[${AUTOFOCUS_ATTRIBUTE}]`)).find(
        (element) => element.closest('[hidden]') === null,
      );
      preferred?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    return () => {
      if (dialog?.open) dialog.close();
    };
  }, []);

  /** Escape: keep the dialog open until the store says otherwise. */
  const handleCancel = (event: SyntheticEvent<HTMLDialogElement>): void => {
    event.preventDefault();
    latest.current.onClose();
  };

  /**
   * Fires however the dialog closed, including a second Escape that some browsers no longer let
   * script cancel; the store is told if it still thinks the dialog is open.
   */
  const handleClose = (): void => {
    const target = returnFocusTo.current;
    returnFocusTo.current = null;
    if (target?.isConnected) target.focus();
    if (latest.current.open) latest.current.onClose();
  };

  /** Tab from the last control goes to the first, Shift+Tab from the first to the last. */
  const handleKeyDown = (event: KeyboardEvent<HTMLDialogElement>): void => {
    if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return;
    const focusable = tabbableIn(event.currentTarget);
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    const active = document.activeElement;
    const inside = active instanceof HTMLElement && event.currentTarget.contains(active);
    if (event.shiftKey && (!inside || active === first)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (!inside || active === last)) {
      event.preventDefault();
      first.focus();
    }
  };

  const handleMouseDown = (event: MouseEvent<HTMLDialogElement>): void => {
    pressStartedOnBackdrop.current = event.target === event.currentTarget;
  };

  /** The dialog itself has no padding, so a click that lands on it directly is on the backdrop. */
  const handleClick = (event: MouseEvent<HTMLDialogElement>): void => {
    const onBackdrop = event.target === event.currentTarget && pressStartedOnBackdrop.current;
    pressStartedOnBackdrop.current = false;
    if (closeOnBackdrop && onBackdrop) onClose();
  };

  return (
    <dialog
      ref={ref}
      className={className ? `ui-dialog ${className}` : 'ui-dialog'}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={handleCancel}
      onClose={handleClose}
      onKeyDown={handleKeyDown}
      onMouseDown={handleMouseDown}
      onClick={handleClick}
    >
      <div className="ui-dialog__panel">
        <div className="ui-dialog__header">
          <h2 id={titleId} className="ui-dialog__title">
            {title}
          </h2>
          {showCloseButton ? (
            <button type="button" className="ui-dialog__close" aria-label={closeLabel} onClick={onClose}>
              <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" width="20" height="20">
                <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
              </svg>
            </button>
          ) : null}
        </div>
        <FlashMessage placement="dialog" />
        {description ? (
          <p id={descriptionId} className="ui-dialog__description">
            {description}
          </p>
        ) : null}
        {children}
        {actions ? <div className="ui-dialog__actions">{actions}</div> : null}
      </div>
    </dialog>
  );
}
