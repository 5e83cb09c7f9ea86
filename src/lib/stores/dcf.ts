import { atom } from 'nanostores';
import {
  dcfModelOf,
  PROJECTION_YEARS_BOUNDS,
  type DcfAssumptions,
  type DcfKind,
  type DcfModel,
} from '../dcf.ts';

/**
 * The editable DCF model of the valuation pages: the four assumptions a visitor may change, as typed,
 * their validation, and the model recomputed from the last valid set. A mistyped field never reaches
 * the model, so the page always shows a complete valuation and never NaN.
 */

/** The assumptions a visitor can edit; every other input comes from the statements and the market. */
export type DcfField = 'growthRate' | 'discountRate' | 'terminalGrowthRate' | 'projectionYears';

export const DCF_FIELDS: readonly DcfField[] = [
  'growthRate',
  'discountRate',
  'terminalGrowthRate',
  'projectionYears',
];

/** Each field as typed (percent for the rates, a whole number for the years). */
export type DcfFields = Record<DcfField, string>;

/** One message per invalid field, written to say what to type instead. */
export type DcfErrors = Partial<Record<DcfField, string>>;

/** Accepted bounds, in the units typed (percent, years): wide enough for any case, narrow enough to mean something. */
export const DCF_FIELD_BOUNDS = {
  growthRate: { min: -99, max: 100 },
  discountRate: { min: 0.01, max: 100 },
  terminalGrowthRate: { min: -10, max: 10 },
  projectionYears: PROJECTION_YEARS_BOUNDS,
} as const;

/** What the island shows: the fields as typed, their errors, and the model of the last valid fields. */
export interface DcfState {
  kind: DcfKind;
  /** The server's default assumptions, the base every edit applies to. */
  defaults: DcfAssumptions;
  defaultFields: DcfFields;
  fields: DcfFields;
  errors: DcfErrors;
  /** Always complete: recomputed only from valid fields. */
  model: DcfModel;
}

const NUMBER_PATTERN = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

const NAMES: Readonly<Record<DcfField, { article: string; name: string }>> = {
  growthRate: { article: 'a', name: 'growth rate' },
  discountRate: { article: 'a', name: 'discount rate' },
  terminalGrowthRate: { article: 'a', name: 'terminal growth rate' },
  projectionYears: { article: 'the', name: 'number of projection years' },
};

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A rate as the form shows it: percent rounded to two decimals, without trailing zeros (0.08534 →
 * "8.53"), so the default reads like something a person would type.
 */
export function percentText(fraction: number): string {
  const rounded = Math.round(fraction * 10_000) / 100;
  return Number.isFinite(rounded) ? String(rounded === 0 ? 0 : rounded) : '0';
}

/** The form's starting values: the model's own assumptions, the discount rate being the one it derived. */
export function defaultDcfFields(kind: DcfKind, defaults: DcfAssumptions): DcfFields {
  const model = dcfModelOf(kind, defaults);
  return {
    growthRate: percentText(defaults.growthRate),
    discountRate: percentText(model.discountRate),
    terminalGrowthRate: percentText(defaults.terminalGrowthRate),
    projectionYears: String(model.projections.length),
  };
}

/** The untouched model of the server render, as the island starts from it. */
export function initialDcfState(kind: DcfKind, defaults: DcfAssumptions): DcfState {
  const fields = defaultDcfFields(kind, defaults);
  return {
    kind,
    defaults,
    defaultFields: fields,
    fields,
    errors: {},
    model: dcfModelOf(kind, defaults),
  };
}

export type DcfParse = { ok: true; assumptions: DcfAssumptions } | { ok: false; errors: DcfErrors };

/** One field's number (in the typed unit) or the message saying why it is not one. */
function parseField(field: DcfField, text: string): number | string {
  const { article, name } = NAMES[field];
  const trimmed = text.trim();
  if (trimmed === '') return `Enter ${article} ${name}.`;
  if (!NUMBER_PATTERN.test(trimmed)) {
    return field === 'projectionYears'
      ? 'Projection years must be a whole number, like 5.'
      : `${capitalized(name)} must be a number in percent, like 4.5.`;
  }
  const value = Number(trimmed);
  const bounds = DCF_FIELD_BOUNDS[field];
  if (field === 'projectionYears') {
    if (!Number.isInteger(value) || value < bounds.min || value > bounds.max) {
      return `Projection years must be a whole number from ${String(bounds.min)} to ${String(bounds.max)}.`;
    }
    return value;
  }
  if (field === 'discountRate' && value <= 0) return 'Discount rate must be above 0%.';
  if (value < bounds.min || value > bounds.max) {
    return `${capitalized(name)} must be between ${String(bounds.min)}% and ${String(bounds.max)}%.`;
  }
  return value;
}

/**
 * Checks the typed fields and turns them into assumptions. A field still showing its default keeps the
 * exact default value (not its two-decimal rounding), so the untouched model equals the server's. When
 * the discount rate does not exceed the terminal growth rate (no Gordon terminal value exists), the
 * error goes to the field the visitor just changed (`edited`), else to the discount rate.
 */
export function parseDcfFields(
  kind: DcfKind,
  defaults: DcfAssumptions,
  defaultFields: DcfFields,
  fields: DcfFields,
  edited?: DcfField,
): DcfParse {
  const errors: DcfErrors = {};
  const values: Partial<Record<DcfField, number>> = {};
  for (const field of DCF_FIELDS) {
    const parsed = parseField(field, fields[field]);
    if (typeof parsed === 'string') errors[field] = parsed;
    else values[field] = parsed;
  }
  const { growthRate, discountRate, terminalGrowthRate, projectionYears } = values;
  if (discountRate !== undefined && terminalGrowthRate !== undefined && discountRate <= terminalGrowthRate) {
    if (edited === 'terminalGrowthRate') {
      errors.terminalGrowthRate = `Terminal growth rate must be below the discount rate (${fields.discountRate.trim()}%).`;
    } else {
      errors.discountRate = `Discount rate must be above the terminal growth rate (${fields.terminalGrowthRate.trim()}%).`;
    }
  }
  if (
    Object.keys(errors).length > 0 ||
    growthRate === undefined ||
    discountRate === undefined ||
    terminalGrowthRate === undefined ||
    projectionYears === undefined
  ) {
    return { ok: false, errors };
  }
  const unchanged = (field: DcfField): boolean => fields[field].trim() === defaultFields[field];
  return {
    ok: true,
    assumptions: {
      ...defaults,
      growthRate: unchanged('growthRate') ? defaults.growthRate : growthRate / 100,
      terminalGrowthRate: unchanged('terminalGrowthRate')
        ? defaults.terminalGrowthRate
        : terminalGrowthRate / 100,
      projectionYears,
      discountRate: unchanged('discountRate') ? dcfModelOf(kind, defaults).discountRate : discountRate / 100,
    },
  };
}

/** The state after a field changed: recomputed when every field is valid, else the same model with errors. */
export function withField(state: DcfState, field: DcfField, text: string): DcfState {
  const fields = { ...state.fields, [field]: text };
  const parsed = parseDcfFields(state.kind, state.defaults, state.defaultFields, fields, field);
  if (!parsed.ok) return { ...state, fields, errors: parsed.errors };
  return {
    ...state,
    fields,
    errors: {},
    model: dcfModelOf(state.kind, parsed.assumptions),
  };
}

/** The island's model; null until an island starts it in the browser. */
export const $dcf = atom<DcfState | null>(null);

/** Whether a state is the model of these defaults (a page holds one model; another page starts afresh). */
export function isDcfStateOf(state: DcfState | null, kind: DcfKind, defaults: DcfAssumptions): boolean {
  return (
    state !== null &&
    state.kind === kind &&
    state.defaults.symbol === defaults.symbol &&
    state.defaults.date === defaults.date
  );
}

/** Starts the editable model from the server's defaults, keeping edits already made to the same model. */
export function startDcf(kind: DcfKind, defaults: DcfAssumptions): void {
  if (isDcfStateOf($dcf.get(), kind, defaults)) return;
  $dcf.set(initialDcfState(kind, defaults));
}

/** A visitor typed into one of the fields. */
export function editDcfField(field: DcfField, text: string): void {
  const state = $dcf.get();
  if (state !== null) $dcf.set(withField(state, field, text));
}

/** Back to the server's model and defaults, errors cleared. */
export function resetDcf(): void {
  const state = $dcf.get();
  if (state !== null) $dcf.set(initialDcfState(state.kind, state.defaults));
}
