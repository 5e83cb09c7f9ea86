import { useStore } from '@nanostores/react';
import type { PlaygroundParam } from '../../lib/playground.ts';
import { $suggestions, clearSuggestions, suggestSymbols } from '../../lib/stores/symbol-suggestions.ts';
import { SymbolCombobox } from './SymbolCombobox.tsx';
import './ParamField.css';

interface Props {
  param: PlaygroundParam;
  value: string;
  /** What is wrong with the value, shown under the field; undefined while nothing is (or shown). */
  problem: string | undefined;
  onChange: (value: string) => void;
  /** Prefix of the control's id, so two forms on a page keep distinct ids. */
  idPrefix?: string;
}

function describedBy(...ids: (string | false)[]): string | undefined {
  const present = ids.filter((id): id is string => id !== false);
  return present.length === 0 ? undefined : present.join(' ');
}

/**
 * One request parameter's field, its control chosen by the parameter's kind: a select for an
 * enumeration or a boolean, a ticker combobox with suggestions, a date input, a number input with
 * the definition's bounds, or text. Required fields say so, and a problem is tied to its control.
 */
export function ParamField({ param, value, problem, onChange, idPrefix = 'param' }: Props) {
  const suggestions = useStore($suggestions);
  const id = `${idPrefix}-${param.name}`;
  const help = `${id}-help`;
  const error = `${id}-error`;
  const common = {
    id,
    required: param.required,
    'aria-required': param.required,
    'aria-invalid': problem !== undefined,
    'aria-describedby': describedBy(help, problem !== undefined && error),
  };
  let control;
  if (param.kind === 'enum' || param.kind === 'boolean') {
    const options = param.kind === 'boolean' ? ['true', 'false'] : param.options;
    control = (
      <select
        {...common}
        className="param-input"
        value={value}
        onChange={(event) => {
          onChange(event.target.value);
        }}
      >
        {!param.required && (
          <option value="">
            {param.defaultValue === undefined ? '(not set)' : `(default: ${param.defaultValue})`}
          </option>
        )}
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    );
  } else if (param.kind === 'symbol' || param.kind === 'symbols') {
    control = (
      <SymbolCombobox
        id={id}
        value={value}
        list={param.kind === 'symbols'}
        required={param.required}
        invalid={problem !== undefined}
        describedBy={common['aria-describedby']}
        options={suggestions.param === id && suggestions.text === value ? suggestions.items : []}
        onInput={(next) => {
          onChange(next);
          suggestSymbols(id, next);
        }}
        onClose={clearSuggestions}
      />
    );
  } else {
    const numeric = param.kind === 'integer' || param.kind === 'number';
    control = (
      <input
        {...common}
        className="param-input"
        type={param.kind === 'date' ? 'date' : numeric ? 'number' : 'text'}
        inputMode={numeric ? (param.kind === 'integer' ? 'numeric' : 'decimal') : undefined}
        step={param.kind === 'number' ? 'any' : undefined}
        min={param.min}
        max={param.max}
        placeholder={param.defaultValue === undefined ? undefined : `default: ${param.defaultValue}`}
        value={value}
        onChange={(event) => {
          onChange(event.target.value);
        }}
      />
    );
  }
  return (
    <div className="param-field">
      <label className="param-label" htmlFor={id}>
        <code>{param.name}</code>
        {param.required ? (
          <span className="param-required">required</span>
        ) : (
          <span className="param-optional">optional</span>
        )}
      </label>
      {control}
      <p id={help} className="param-help">
        {param.description}
        {param.inPath === true ? ' (in the path)' : ''}
      </p>
      {problem !== undefined && (
        <p id={error} className="param-problem">
          {param.name} {problem}
        </p>
      )}
    </div>
  );
}
