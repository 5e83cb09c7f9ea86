import { useStore } from '@nanostores/react';
import { useEffect, useId, useMemo, type ReactNode } from 'react';
import {
  formatPerShare,
  formatRate,
  upsidePercent,
  type DcfAssumptions,
  type DcfKind,
  type DcfModel as DcfModelResult,
} from '../lib/dcf.ts';
import { formatNumber, formatPercent, MISSING_VALUE } from '../lib/format.ts';
import {
  $dcf,
  DCF_FIELD_BOUNDS,
  editDcfField,
  initialDcfState,
  isDcfStateOf,
  resetDcf,
  startDcf,
  type DcfField,
  type DcfState,
} from '../lib/stores/dcf.ts';
import { useHydrated } from './parts/use-hydrated.ts';
import './DcfModel.css';

export interface DcfModelProps {
  kind: DcfKind;
  /** The server's default assumptions for the symbol; the page's first render is their model. */
  defaults: DcfAssumptions;
  /** Reporting currency of the amounts (ISO 4217). */
  currency: string;
}

type Row = readonly [string, string];

/** A two-column table of labelled values, styled like the site's data tables. */
function ValueTable({ caption, rows }: { caption: string; rows: readonly Row[] }): ReactNode {
  return (
    <div className="dcf-table-scroll">
      <table className="dcf-table">
        <caption>{caption}</caption>
        <tbody>
          {rows.map(([label, value]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td className="dcf-num">{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function cashFlowName(kind: DcfKind): string {
  return kind === 'unlevered' ? 'Free cash flow to the firm' : 'Free cash flow to equity';
}

function rateName(kind: DcfKind): string {
  return kind === 'unlevered' ? 'WACC' : 'cost of equity';
}

interface FieldSpec {
  field: DcfField;
  label: string;
  help: (state: DcfState) => string;
  inputMode: 'decimal' | 'numeric';
}

const FIELDS: readonly FieldSpec[] = [
  {
    field: 'growthRate',
    label: 'Growth rate (%)',
    inputMode: 'decimal',
    help: (state) =>
      `Yearly growth of the cash flow over the projection years. Default ${state.defaultFields.growthRate}%: the mean revenue growth of recent years, kept between -5% and 15%.`,
  },
  {
    field: 'discountRate',
    label: 'Discount rate (%)',
    inputMode: 'decimal',
    help: (state) =>
      state.kind === 'unlevered'
        ? `The WACC (weighted average cost of capital), because the cash flows go to debt and equity holders alike. Default ${state.defaultFields.discountRate}%.`
        : `The cost of equity (CAPM), because the cash flows belong to shareholders only. Default ${state.defaultFields.discountRate}%.`,
  },
  {
    field: 'terminalGrowthRate',
    label: 'Terminal growth rate (%)',
    inputMode: 'decimal',
    help: (state) =>
      `Growth for ever after the projection years, used by the terminal value; it must stay below the discount rate. Default ${state.defaultFields.terminalGrowthRate}%.`,
  },
  {
    field: 'projectionYears',
    label: 'Projection years',
    inputMode: 'numeric',
    help: (state) =>
      `Years projected one by one, a whole number from ${String(DCF_FIELD_BOUNDS.projectionYears.min)} to ${String(DCF_FIELD_BOUNDS.projectionYears.max)}. Default ${state.defaultFields.projectionYears}.`,
  },
];

function AssumptionsForm({ state, hydrated }: { state: DcfState; hydrated: boolean }): ReactNode {
  const id = useId();
  const headingId = `${id}-heading`;
  const hasErrors = Object.keys(state.errors).length > 0;
  return (
    <section className="dcf-section" aria-labelledby={headingId}>
      <h3 id={headingId}>Assumptions</h3>
      <form
        className="dcf-form"
        aria-labelledby={headingId}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
        }}
      >
        {FIELDS.map(({ field, label, help, inputMode }) => {
          const inputId = `${id}-${field}`;
          const helpId = `${inputId}-help`;
          const errorId = `${inputId}-error`;
          const error = state.errors[field];
          return (
            <div className="dcf-field" key={field}>
              <label htmlFor={inputId}>{label}</label>
              <input
                id={inputId}
                name={field}
                type="text"
                inputMode={inputMode}
                autoComplete="off"
                spellCheck={false}
                value={state.fields[field]}
                readOnly={!hydrated}
                aria-invalid={error === undefined ? undefined : true}
                aria-describedby={`${errorId} ${helpId}`}
                onChange={(event) => {
                  editDcfField(field, event.currentTarget.value);
                }}
              />
              <p id={errorId} className="dcf-error" aria-live="polite">
                {error ?? ''}
              </p>
              <p id={helpId} className="dcf-help">
                {help(state)}
              </p>
            </div>
          );
        })}
        <div className="dcf-actions">
          <button type="button" className="btn btn-secondary btn-sm" disabled={!hydrated} onClick={resetDcf}>
            Reset to defaults
          </button>
          <p className="dcf-status" role="status">
            {hasErrors ? 'The model still uses the last valid assumptions until the fields are fixed.' : ''}
          </p>
        </div>
      </form>
    </section>
  );
}

function inputRows(model: DcfModelResult, currency: string): Row[] {
  const a = model.assumptions;
  const rows: Row[] = [
    [`${cashFlowName(model.kind)}, fiscal ${String(a.baseYear)} (${currency})`, formatNumber(a.baseCashFlow)],
    ['Growth rate', formatRate(a.growthRate)],
    ['Projection years', String(model.projections.length)],
    ['Terminal growth rate', formatRate(a.terminalGrowthRate)],
    ['Risk-free rate', formatRate(a.riskFreeRate)],
    ['Beta', formatNumber(a.beta)],
    ['Equity risk premium', formatRate(a.equityRiskPremium)],
    ['Cost of equity (CAPM)', formatRate(model.costOfEquity)],
  ];
  if (model.kind === 'unlevered') {
    rows.push(
      ['Pre-tax cost of debt', formatRate(a.costOfDebt)],
      ['Tax rate', formatRate(a.taxRate)],
      ['After-tax cost of debt', formatRate(model.afterTaxCostOfDebt)],
      ['Equity weight', formatRate(model.equityWeight)],
      ['Debt weight', formatRate(model.debtWeight)],
      ['WACC', formatRate(model.wacc)],
    );
  }
  rows.push(
    [`Discount rate used (${rateName(model.kind)} unless edited)`, formatRate(model.discountRate)],
    [`Net debt (${currency})`, formatNumber(a.netDebt)],
    ['Shares outstanding', formatNumber(a.sharesOutstanding)],
    [`Price, close of ${a.date} (${currency})`, formatPerShare(a.stockPrice)],
  );
  return rows;
}

function valuationRows(model: DcfModelResult, currency: string): Row[] {
  const defined = model.terminalValueDefined;
  const money = (value: number): string => (defined ? formatNumber(value) : MISSING_VALUE);
  const upside = defined ? upsidePercent(model.equityValuePerShare, model.stockPrice) : undefined;
  const levered = model.kind === 'levered';
  return [
    [`Sum of present values (${currency})`, formatNumber(model.sumPresentValue)],
    [`Terminal value (${currency})`, money(model.terminalValue)],
    [`Present value of the terminal value (${currency})`, money(model.presentTerminalValue)],
    [
      levered ? `Enterprise value: equity value + net debt (${currency})` : `Enterprise value (${currency})`,
      money(model.enterpriseValue),
    ],
    [
      levered ? `Net debt, already paid out of the cash flows (${currency})` : `Less net debt (${currency})`,
      formatNumber(model.netDebt),
    ],
    [`Equity value (${currency})`, money(model.equityValue)],
    ['Equity value per share', defined ? formatPerShare(model.equityValuePerShare) : MISSING_VALUE],
    ['Current price', formatPerShare(model.stockPrice)],
    [upside !== undefined && upside < 0 ? 'Downside' : 'Upside', formatPercent(upside)],
  ];
}

function Projections({ model, currency }: { model: DcfModelResult; currency: string }): ReactNode {
  const headingId = useId();
  return (
    <section className="dcf-section" aria-labelledby={headingId}>
      <h3 id={headingId}>Projected cash flows</h3>
      <div className="dcf-table-scroll">
        <table className="dcf-table">
          <caption>
            {`${cashFlowName(model.kind)} by year, discounted at ${formatRate(model.discountRate)} (${currency})`}
          </caption>
          <thead>
            <tr>
              <th scope="col">Year</th>
              <th scope="col" className="dcf-num">
                Cash flow
              </th>
              <th scope="col" className="dcf-num">
                Discount factor
              </th>
              <th scope="col" className="dcf-num">
                Present value
              </th>
            </tr>
          </thead>
          <tbody>
            {model.projections.map((row) => (
              <tr key={row.year}>
                <th scope="row">{row.year}</th>
                <td className="dcf-num">{formatNumber(row.cashFlow)}</td>
                <td className="dcf-num">{formatNumber(row.discountFactor, { maximumFractionDigits: 4 })}</td>
                <td className="dcf-num">{formatNumber(row.presentValue)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/**
 * The editable DCF model: the server renders it with the default assumptions (the same numbers as the
 * rest of the page), and in the browser every change to an assumption recomputes it at once.
 */
export function DcfModel({ kind, defaults, currency }: DcfModelProps): ReactNode {
  const hydrated = useHydrated();
  const stored = useStore($dcf);
  const initial = useMemo(() => initialDcfState(kind, defaults), [kind, defaults]);
  useEffect(() => {
    startDcf(kind, defaults);
  }, [kind, defaults]);
  const state = hydrated && stored !== null && isDcfStateOf(stored, kind, defaults) ? stored : initial;
  const { model } = state;
  const resultId = useId();
  const upside = model.terminalValueDefined
    ? upsidePercent(model.equityValuePerShare, model.stockPrice)
    : undefined;

  return (
    <div className="dcf">
      <AssumptionsForm state={state} hydrated={hydrated} />

      <section className="dcf-section" aria-labelledby={`${resultId}-heading`}>
        <h3 id={`${resultId}-heading`}>Result</h3>
        <p className="dcf-result">
          <span>Equity value per share</span>{' '}
          <output aria-label="Equity value per share" className="dcf-result__value">
            {model.terminalValueDefined ? formatPerShare(model.equityValuePerShare) : MISSING_VALUE}
          </output>{' '}
          <span className="dcf-result__currency">{currency}</span>
        </p>
        <p className="dcf-result__compare">
          {upside === undefined ? (
            model.terminalValueDefined ? (
              'No price to compare with.'
            ) : (
              'No value: the discount rate does not exceed the terminal growth rate, so the terminal value is undefined.'
            )
          ) : (
            <>
              <span className={upside < 0 ? 'dcf-down' : 'dcf-up'}>
                {formatPercent(upside)} {upside < 0 ? 'downside' : 'upside'}
              </span>{' '}
              {`against the price of ${formatPerShare(model.stockPrice)} (close of ${model.date}).`}
            </>
          )}
        </p>
      </section>

      <Projections model={model} currency={currency} />

      <section className="dcf-section" aria-labelledby={`${resultId}-valuation`}>
        <h3 id={`${resultId}-valuation`}>Valuation</h3>
        <ValueTable
          caption="From discounted cash flows to value per share"
          rows={valuationRows(model, currency)}
        />
      </section>

      <section className="dcf-section" aria-labelledby={`${resultId}-inputs`}>
        <h3 id={`${resultId}-inputs`}>Model inputs</h3>
        <ValueTable caption="Inputs of the model as computed" rows={inputRows(model, currency)} />
      </section>
    </div>
  );
}
