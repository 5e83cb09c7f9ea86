import { useStore } from '@nanostores/react';
import { useEffect, useId, type ReactNode, type SyntheticEvent } from 'react';
import type { AdminCoupon, CouponState } from '../lib/admin.ts';
import { formatDateTime, formatDay } from '../lib/format.ts';
import { $canAct } from '../lib/stores/admin-console.ts';
import {
  $adminCoupons,
  askFor,
  COUPON_STATE_LABELS,
  createCoupon,
  disableCoupon,
  discountText,
  editDraft,
  loadCoupons,
  plansText,
  setReason,
  startAdminCoupons,
  togglePlan,
  usesText,
  type DraftField,
} from '../lib/stores/admin-coupons.ts';
import { Badge, LoadState } from './parts/AdminParts.tsx';
import { Dialog } from './parts/Dialog.tsx';
import './AdminCoupons.css';

/** How each state's badge looks: usable in green, turned off in red, run out in grey. */
const STATE_TONES: Readonly<Record<CouponState, 'success' | 'danger' | 'neutral'>> = {
  active: 'success',
  disabled: 'danger',
  expired: 'neutral',
  used_up: 'neutral',
};

/** The refusal shown beside a field, when the server's refusal names it. */
function useFieldProblem(field: DraftField): string {
  const { problem, pending } = useStore($adminCoupons);
  return pending === null && problem.field === field ? problem.message : '';
}

/** A refusal under its field, tied to it with aria-describedby through `id`. */
function FieldProblem({ id, message }: { id: string; message: string }): ReactNode {
  if (message === '') return null;
  return (
    <p id={id} className="admin-coupons__problem">
      {message}
    </p>
  );
}

/** The ids a field's hint and refusal have, joined for aria-describedby. */
function describedBy(hintId: string, problemId: string, problem: string): string {
  return problem === '' ? hintId : `${problemId} ${hintId}`;
}

/** The form's fields in order: the first one the server refused gets the focus. */
const FIELD_IDS: Readonly<Partial<Record<DraftField, string>>> = {
  code: 'coupon-code',
  discount: 'coupon-discount',
  planCodes: 'coupon-plan-0',
  lastDay: 'coupon-last-day',
  maxUses: 'coupon-max-uses',
};

function CreateForm(): ReactNode {
  const { draft, plans, problem, pending } = useStore($adminCoupons);
  const ids = useId();
  const codeProblem = useFieldProblem('code');
  const discountProblem = useFieldProblem('discount');
  const plansProblem = useFieldProblem('planCodes');
  const dayProblem = useFieldProblem('lastDay');
  const usesProblem = useFieldProblem('maxUses');

  // A field refused after the confirmation closed: the focus goes to it, where its message is read.
  // The confirmation hands the focus back to its opener when it has closed, so this waits for that.
  useEffect(() => {
    const id = FIELD_IDS[problem.field];
    if (pending !== null || id === undefined) return undefined;
    const focusField = (): void => {
      document.getElementById(id)?.focus();
    };
    const dialog = document.querySelector<HTMLDialogElement>('dialog[open]');
    if (dialog === null) {
      focusField();
      return undefined;
    }
    dialog.addEventListener('close', focusField, { once: true });
    return () => {
      dialog.removeEventListener('close', focusField);
    };
  }, [problem, pending]);

  const onSubmit = (event: SyntheticEvent): void => {
    event.preventDefault();
    askFor({ kind: 'create', reason: '' });
  };
  const percent = draft.kind === 'percent';
  return (
    <section className="admin-coupons__card" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>New coupon</h2>
      <form className="admin-coupons__form" onSubmit={onSubmit} noValidate>
        <div className="admin-coupons__field">
          <label htmlFor="coupon-code">Code</label>
          <input
            id="coupon-code"
            className="text-input admin-coupons__code-input"
            value={draft.code}
            maxLength={40}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={codeProblem !== '' || undefined}
            aria-describedby={describedBy(`${ids}-code-hint`, `${ids}-code-problem`, codeProblem)}
            onChange={(event) => {
              editDraft({ code: event.target.value });
            }}
          />
          <FieldProblem id={`${ids}-code-problem`} message={codeProblem} />
          <p id={`${ids}-code-hint`} className="admin-coupons__note">
            3 to 32 letters, digits, - or _. Visitors type it in any case; it is kept in capitals.
          </p>
        </div>

        <fieldset className="admin-coupons__field">
          <legend>Discount</legend>
          <div className="admin-coupons__choices">
            <label className="admin-coupons__choice">
              <input
                type="radio"
                name="coupon-kind"
                checked={percent}
                onChange={() => {
                  editDraft({ kind: 'percent' });
                }}
              />
              Percent off
            </label>
            <label className="admin-coupons__choice">
              <input
                type="radio"
                name="coupon-kind"
                checked={!percent}
                onChange={() => {
                  editDraft({ kind: 'amount' });
                }}
              />
              Amount off
            </label>
          </div>
          <label htmlFor="coupon-discount">{percent ? 'Percent off' : 'Amount off in US dollars'}</label>
          <div className="admin-coupons__affixed">
            {!percent && <span aria-hidden="true">$</span>}
            <input
              id="coupon-discount"
              className="text-input admin-coupons__number"
              inputMode="decimal"
              value={draft.discount}
              aria-invalid={discountProblem !== '' || undefined}
              aria-describedby={describedBy(
                `${ids}-discount-hint`,
                `${ids}-discount-problem`,
                discountProblem,
              )}
              onChange={(event) => {
                editDraft({ discount: event.target.value });
              }}
            />
            {percent && <span aria-hidden="true">%</span>}
          </div>
          <FieldProblem id={`${ids}-discount-problem`} message={discountProblem} />
          <p id={`${ids}-discount-hint`} className="admin-coupons__note">
            {percent
              ? 'A whole number from 1 to 100.'
              : 'Taken off the first payment; a plan never costs less than nothing.'}
          </p>
        </fieldset>

        <fieldset
          className="admin-coupons__field"
          aria-describedby={describedBy(`${ids}-plans-hint`, `${ids}-plans-problem`, plansProblem)}
        >
          <legend>Plans it applies to</legend>
          <div className="admin-coupons__plans">
            {plans.map((plan, index) => (
              <label key={plan.code} className="admin-coupons__choice">
                <input
                  id={`coupon-plan-${String(index)}`}
                  type="checkbox"
                  checked={draft.planCodes.includes(plan.code)}
                  aria-invalid={plansProblem !== '' || undefined}
                  onChange={(event) => {
                    togglePlan(plan.code, event.target.checked);
                  }}
                />
                {plan.name}
              </label>
            ))}
          </div>
          <FieldProblem id={`${ids}-plans-problem`} message={plansProblem} />
          <p id={`${ids}-plans-hint`} className="admin-coupons__note">
            Leave them all unticked for every paid plan.
          </p>
        </fieldset>

        <div className="admin-coupons__row">
          <div className="admin-coupons__field">
            <label htmlFor="coupon-last-day">Last day</label>
            <input
              id="coupon-last-day"
              type="date"
              className="text-input"
              value={draft.lastDay}
              aria-invalid={dayProblem !== '' || undefined}
              aria-describedby={describedBy(`${ids}-day-hint`, `${ids}-day-problem`, dayProblem)}
              onChange={(event) => {
                editDraft({ lastDay: event.target.value });
              }}
            />
            <FieldProblem id={`${ids}-day-problem`} message={dayProblem} />
            <p id={`${ids}-day-hint`} className="admin-coupons__note">
              It works until the end of this day, your time. Empty: no end.
            </p>
          </div>
          <div className="admin-coupons__field">
            <label htmlFor="coupon-max-uses">Maximum uses</label>
            <input
              id="coupon-max-uses"
              className="text-input admin-coupons__number"
              inputMode="numeric"
              value={draft.maxUses}
              aria-invalid={usesProblem !== '' || undefined}
              aria-describedby={describedBy(`${ids}-uses-hint`, `${ids}-uses-problem`, usesProblem)}
              onChange={(event) => {
                editDraft({ maxUses: event.target.value });
              }}
            />
            <FieldProblem id={`${ids}-uses-problem`} message={usesProblem} />
            <p id={`${ids}-uses-hint`} className="admin-coupons__note">
              Paid checkouts that may use it. Empty: no limit.
            </p>
          </div>
        </div>

        {pending === null && problem.message !== '' && problem.field === '' && (
          <p className="admin-coupons__problem" role="alert">
            {problem.message}
          </p>
        )}
        <div>
          <button type="submit" className="btn btn-primary">
            Create coupon…
          </button>
        </div>
      </form>
    </section>
  );
}

/** The reason field of a confirmation, with the server's refusal of it. */
function ReasonField(): ReactNode {
  const { pending, problem } = useStore($adminCoupons);
  const id = useId();
  const refused = problem.field === 'reason';
  return (
    <div className="admin-coupons__field">
      <label htmlFor={id}>Reason</label>
      <textarea
        id={id}
        className="text-input admin-coupons__reason"
        rows={3}
        maxLength={500}
        value={pending?.reason ?? ''}
        data-autofocus
        aria-invalid={refused || undefined}
        aria-describedby={`${id}-hint`}
        onChange={(event) => {
          setReason(event.target.value);
        }}
      />
      <p id={`${id}-hint`} className="admin-coupons__note">
        Kept in the audit trail with your name.
      </p>
    </div>
  );
}

/** The refusal a confirmation shows (of the reason, or of the whole change). */
function DialogProblem(): ReactNode {
  const { problem } = useStore($adminCoupons);
  if (problem.message === '') return null;
  return <p className="admin-coupons__problem">{problem.message}</p>;
}

function CreateDialog(): ReactNode {
  const { pending, draft, plans, busy } = useStore($adminCoupons);
  const open = pending?.kind === 'create';
  const code = draft.code.trim().toUpperCase();
  const discount = draft.discount.trim();
  const planPart = draft.planCodes.length === 0 ? 'every paid plan' : plansText(draft.planCodes, plans);
  const terms = [
    discount === ''
      ? `No discount given, for ${planPart}`
      : `${draft.kind === 'percent' ? `${discount}%` : `$${discount}`} off ${planPart}`,
    draft.lastDay === '' ? 'no end' : `until the end of ${formatDay(draft.lastDay)}`,
    draft.maxUses.trim() === '' ? 'no limit of uses' : `at most ${draft.maxUses.trim()} uses`,
  ];
  const onSubmit = (event: SyntheticEvent): void => {
    event.preventDefault();
    void createCoupon();
  };
  return (
    <Dialog
      open={open}
      onClose={() => {
        askFor(null);
      }}
      title={`Create coupon ${code}?`}
      description={`${terms.join('; ')}. Visitors can apply it on the pricing page at once.`}
    >
      <form className="admin-coupons__dialog-form" onSubmit={onSubmit} noValidate>
        <ReasonField />
        <DialogProblem />
        <div className="admin-coupons__dialog-actions">
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => {
              askFor(null);
            }}
          >
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Creating…' : 'Create coupon'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function DisableDialog(): ReactNode {
  const { pending, busy } = useStore($adminCoupons);
  const coupon = pending?.kind === 'disable' ? pending.coupon : null;
  const onSubmit = (event: SyntheticEvent): void => {
    event.preventDefault();
    void disableCoupon();
  };
  return (
    <Dialog
      open={coupon !== null}
      onClose={() => {
        askFor(null);
      }}
      title={`Disable coupon ${coupon?.code ?? ''}?`}
      description="The pricing page and new checkouts refuse it from now on; checkouts opened with it already keep their price. A disabled coupon cannot be turned on again."
    >
      <form className="admin-coupons__dialog-form" onSubmit={onSubmit} noValidate>
        <ReasonField />
        <DialogProblem />
        <div className="admin-coupons__dialog-actions">
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => {
              askFor(null);
            }}
          >
            Keep it
          </button>
          <button type="submit" className="btn btn-danger" disabled={busy}>
            {busy ? 'Disabling…' : 'Disable coupon'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function CouponRow({ coupon, canEdit }: { coupon: AdminCoupon; canEdit: boolean }): ReactNode {
  const { plans } = useStore($adminCoupons);
  return (
    <tr>
      <th scope="row">
        <code className="admin-coupons__code">{coupon.code}</code>
      </th>
      <td data-label="Discount">{discountText(coupon)}</td>
      <td data-label="Plans" className="admin-coupons__wrap">
        {plansText(coupon.planCodes, plans)}
      </td>
      <td data-label="Expires" className="admin-coupons__wrap">
        {coupon.expiresAt === null ? 'Never' : formatDateTime(coupon.expiresAt)}
      </td>
      <td data-label="Uses" className="admin-coupons__uses">
        {usesText(coupon)}
      </td>
      <td data-label="State">
        <Badge tone={STATE_TONES[coupon.state]}>{COUPON_STATE_LABELS[coupon.state]}</Badge>
      </td>
      <td data-label="Created">{formatDay(coupon.createdAt.slice(0, 10))}</td>
      {canEdit && (
        <td className="admin-coupons__row-actions">
          {coupon.state === 'active' && (
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={() => {
                askFor({ kind: 'disable', coupon, reason: '' });
              }}
            >
              Disable<span className="visually-hidden"> coupon {coupon.code}</span>
            </button>
          )}
        </td>
      )}
    </tr>
  );
}

function CouponList({ canEdit }: { canEdit: boolean }): ReactNode {
  const { coupons } = useStore($adminCoupons);
  const titleId = useId();
  return (
    <section className="admin-coupons__card" aria-labelledby={titleId}>
      <h2 id={titleId}>Coupons</h2>
      {coupons.length === 0 ? (
        <p className="admin-coupons__note">
          No coupons yet.{canEdit ? ' The form above creates the first one.' : ''}
        </p>
      ) : (
        <div className="admin-coupons__scroll">
          <table className="admin-coupons__table">
            <caption className="visually-hidden">Coupons, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Code</th>
                <th scope="col">Discount</th>
                <th scope="col">Plans</th>
                <th scope="col">Expires</th>
                <th scope="col">Uses</th>
                <th scope="col">State</th>
                <th scope="col">Created</th>
                {canEdit && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {coupons.map((coupon) => (
                <CouponRow key={coupon.code} coupon={coupon} canEdit={canEdit} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/**
 * The console's coupons page: the list with each coupon's terms, uses and state; for administrators
 * the create form and a Disable button per active coupon, each confirmed with a reason.
 */
export function AdminCoupons(): ReactNode {
  const state = useStore($adminCoupons);
  const canEdit = useStore($canAct); // administrators; analysts only read
  useEffect(() => startAdminCoupons(), []);

  if (state.status !== 'ready') {
    return (
      <LoadState
        status={state.status}
        error={state.error}
        loading="Loading coupons…"
        onRetry={() => {
          void loadCoupons();
        }}
      />
    );
  }
  return (
    <div className="admin-coupons">
      {canEdit ? (
        <CreateForm />
      ) : (
        <p className="admin-coupons__note">
          You can read the coupons here; administrators create and disable them.
        </p>
      )}
      <CouponList canEdit={canEdit} />
      {canEdit && (
        <>
          <CreateDialog />
          <DisableDialog />
        </>
      )}
    </div>
  );
}
