import { useStore } from '@nanostores/react';
import { useEffect, useMemo, type SyntheticEvent } from 'react';
import { groupedEndpoints } from '../lib/playground.ts';
import { AUTH_LINKS } from '../lib/routes.ts';
import type { ExplorerCatalogue } from '../lib/spreadsheet/explorer.ts';
import { $keyOwner } from '../lib/stores/data-api-access.ts';
import { $dataTier } from '../lib/stores/plan-access.ts';
import {
  $explorer,
  $explorerCopyNote,
  $explorerEndpoint,
  $explorerOutputs,
  $explorerProblems,
  chooseEndpoint,
  clearFields,
  copyOutput,
  keepAllFields,
  setExplorerParam,
  startExplorer,
  toggleField,
  type ExplorerOutput,
  type PreviewState,
} from '../lib/stores/sheet-explorer.ts';
import { ParamField } from './parts/ParamField.tsx';
import './SheetExplorer.css';

interface Props {
  catalogue: ExplorerCatalogue;
}

/** What each output is for, under its heading. */
const OUTPUT_HELP: Record<ExplorerOutput['kind'], string> = {
  'add-in':
    'Type it in a cell of a workbook with the add-in connected: the rows spill from that cell. It holds no key; the add-in sends your connected account’s.',
  importdata:
    'Paste it in a cell of a Google Sheet: the rows fill the sheet from that cell, header row first. Sheets fetches it again about once an hour.',
  'power-query':
    'In Excel choose Data › From Web, paste this address, choose Anonymous access, then Load. Refresh on the Data tab fetches it again.',
};

/** The preview of the rows the formulas bring, or why there is none. */
function Preview({ preview, noFields }: { preview: PreviewState; noFields: boolean }) {
  if (noFields) return <p className="explorer-note">Choose at least one field to see its rows.</p>;
  switch (preview.status) {
    case 'waiting':
      return <p className="explorer-note">Correct the marked parameters to see the rows.</p>;
    case 'loading':
      return <p className="explorer-note">Fetching the rows…</p>;
    case 'failed':
      return (
        <p className="explorer-refusal" role="alert">
          {preview.message}
        </p>
      );
    case 'refused':
      return (
        <div className="explorer-refusal" role="alert">
          <p>
            <strong>{preview.code}</strong> {preview.message}
          </p>
          <p>
            {preview.advice}
            {preview.code === 402 && (
              <>
                {' '}
                <a href={AUTH_LINKS.pricing}>Compare plans</a>.
              </>
            )}
          </p>
        </div>
      );
    case 'ready': {
      const { table } = preview;
      if (table.total === 0) {
        return (
          <p className="explorer-note">
            No rows for these parameters: in a spreadsheet the add-in shows #N/A and IMPORTDATA the header row
            only.
          </p>
        );
      }
      return (
        <>
          <p className="explorer-note">
            The first {Math.min(table.rows.length, table.total)} of {table.total} row
            {table.total === 1 ? '' : 's'}, as the spreadsheet will show them.
          </p>
          <div className="explorer-table" tabIndex={0} role="region" aria-label="Preview of the rows">
            <table>
              <thead>
                <tr>
                  {table.columns.map((column) => (
                    <th key={column} scope="col">
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {table.rows.map((row, index) => (
                  <tr key={index}>
                    {row.map((cell, column) => (
                      <td
                        key={table.columns[column]}
                        className={typeof cell === 'number' ? 'number' : undefined}
                      >
                        {String(cell)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      );
    }
  }
}

/**
 * The spreadsheet explorer: choose an endpoint, its parameters and the fields to keep, see the first
 * rows, and copy the add-in formula, the IMPORTDATA formula and the Power Query address with your
 * key. Every endpoint, parameter and field comes from the catalogue the page was built with.
 */
export function SheetExplorer({ catalogue }: Props) {
  const state = useStore($explorer);
  const endpoint = useStore($explorerEndpoint);
  const problems = useStore($explorerProblems);
  const outputs = useStore($explorerOutputs);
  const note = useStore($explorerCopyNote);
  const owner = useStore($keyOwner);
  const tier = useStore($dataTier);
  const groups = useMemo(() => groupedEndpoints(catalogue.endpoints, ''), [catalogue]);

  useEffect(() => startExplorer(catalogue), [catalogue]);

  if (endpoint === null) return null;
  const kept = new Set(state.fields ?? endpoint.fields);
  const locked = endpoint.tier > tier;
  const noFields = state.fields?.length === 0;
  const onSubmit = (event: SyntheticEvent): void => {
    event.preventDefault();
  };

  return (
    <div className="explorer">
      {owner.kind === 'visitor' && (
        <aside className="explorer-visitor" aria-label="Using the explorer without a key">
          <p>
            <strong>You are not signed in.</strong> The preview uses the site’s visitor access (the free
            sample’s symbols), and the formulas show <code>YOUR_API_KEY</code> where your key goes.{' '}
            <a href={AUTH_LINKS.signIn}>Sign in</a> or <a href={AUTH_LINKS.signUp}>get a free API key</a> to
            copy them with your own.
          </p>
        </aside>
      )}
      <form className="explorer-choice" onSubmit={onSubmit} noValidate aria-labelledby="choose-the-data">
        <h2 id="choose-the-data">Choose the data</h2>
        <div className="param-field">
          <label className="param-label" htmlFor="explorer-endpoint">
            Endpoint
          </label>
          <select
            id="explorer-endpoint"
            className="param-input"
            value={endpoint.id}
            aria-describedby="explorer-endpoint-help"
            onChange={(event) => {
              chooseEndpoint(event.target.value);
            }}
          >
            {groups.map((group) => (
              <optgroup key={group.group} label={group.group}>
                {group.endpoints.map((option) => (
                  <option key={option.id} value={option.id}>
                    {option.summary} ({option.id})
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
          <p id="explorer-endpoint-help" className="param-help">
            {endpoint.description}
          </p>
          <p className="explorer-facts">
            <span className="badge">{endpoint.tierName} data</span>
            {!endpoint.csv && <span className="badge">JSON only</span>}
            <a href={endpoint.reference}>Reference</a>
            <a href={`/playground?endpoint=${encodeURIComponent(endpoint.id)}`}>Open in the API viewer</a>
          </p>
          {locked && (
            <p className="explorer-locked">
              Your plan does not include {endpoint.tierName} data
              {endpoint.plan === null ? '' : `: it needs the ${endpoint.plan.name} plan`}. The formulas work
              once your plan does; <a href={AUTH_LINKS.pricing}>compare plans</a>.
            </p>
          )}
        </div>
        {endpoint.params.length > 0 && (
          <fieldset className="param-fields">
            <legend className="explorer-legend">Parameters</legend>
            {endpoint.params.map((param) => (
              <ParamField
                key={`${endpoint.id}-${param.name}`}
                idPrefix="explorer"
                param={param}
                value={state.values[param.name] ?? ''}
                problem={problems[param.name]}
                onChange={(value) => {
                  setExplorerParam(param.name, value);
                }}
              />
            ))}
          </fieldset>
        )}
        <fieldset className="explorer-fields">
          <legend className="explorer-legend">Fields</legend>
          <p className="param-help">
            {state.fields === null
              ? `All ${String(endpoint.fields.length)} fields are kept. Untick the ones you do not need, or clear them and tick the few you do.`
              : `${String(kept.size)} of ${String(endpoint.fields.length)} fields kept, in the order listed.`}
          </p>
          <div className="explorer-field-actions">
            <button type="button" className="btn btn-secondary btn-sm" onClick={keepAllFields}>
              Keep all fields
            </button>
            <button type="button" className="btn btn-secondary btn-sm" onClick={clearFields}>
              Clear fields
            </button>
          </div>
          <ul className="explorer-field-list" role="list">
            {endpoint.fields.map((field) => (
              <li key={field}>
                <label>
                  <input
                    type="checkbox"
                    checked={kept.has(field)}
                    onChange={(event) => {
                      toggleField(field, event.target.checked);
                    }}
                  />
                  <code>{field}</code>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      </form>

      <section className="explorer-section" aria-labelledby="preview">
        <h2 id="preview">Preview</h2>
        <Preview preview={state.preview} noFields={noFields} />
      </section>

      <section className="explorer-section" aria-labelledby="formulas">
        <h2 id="formulas">Formulas</h2>
        {noFields && <p className="explorer-note">Choose at least one field to write the formulas.</p>}
        {outputs.map((output) => (
          <div key={output.kind} className="explorer-output">
            <h3 id={`output-${output.kind}`}>{output.label}</h3>
            <p className="param-help">{OUTPUT_HELP[output.kind]}</p>
            <pre tabIndex={0} aria-labelledby={`output-${output.kind}`}>
              <code>{output.shown}</code>
            </pre>
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={() => {
                void copyOutput(output.kind);
              }}
            >
              Copy<span className="visually-hidden"> {output.label}</span>
            </button>
          </div>
        ))}
        {!noFields && !endpoint.csv && (
          <p className="explorer-note">
            {endpoint.id} answers JSON only, so IMPORTDATA and Power Query cannot read it as CSV: use the
            add-in formula, or an endpoint marked CSV in the{' '}
            <a href="/developer/docs/excel-add-on#without-the-add-in">list of CSV endpoints</a>.
          </p>
        )}
        <p className="visually-hidden" role="status">
          {note}
        </p>
      </section>
    </div>
  );
}
