import { memo, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import {
  copyText,
  keyLabel,
  leafText,
  nodeJson,
  openByDefault,
  pathLabel,
  previewText,
  rangeLabel,
  rootNode,
  sizeText,
  treeKeyAction,
  visibleRows,
  type JsonNode,
  type TreeRow,
} from '../../lib/json-tree.ts';
import './JsonTree.css';

export interface JsonTreeProps {
  /** The answer to show, as parsed JSON. */
  value: unknown;
  /** Names the tree for assistive technology ("Answer of /stable/quote"). */
  label: string;
  /** Levels open at first: 1 opens the root alone; ranges of large arrays never open by themselves. */
  defaultExpandDepth?: number;
}

interface TreeState {
  value: unknown;
  /** Nodes whose open state differs from their default. */
  toggled: ReadonlySet<string>;
  /** False after "Collapse all": every node then starts closed. */
  defaults: boolean;
  /** The node holding the tree's one tab stop, which the toolbar acts on. */
  active: JsonNode;
}

function initialState(value: unknown): TreeState {
  return { value, toggled: new Set(), defaults: true, active: rootNode(value) };
}

/** A row's text; memoised by row, so moving the focus does not recompute the previews. */
const NodeLine = memo(function NodeLine({ row }: { row: TreeRow }): ReactNode {
  const { node, open } = row;
  if (node.type === 'range') return <span className="json-tree__key">{rangeLabel(node)}</span>;
  const key = keyLabel(node);
  const container = node.kind === 'object' || node.kind === 'array';
  const size = sizeText(node.value);
  return (
    <span className="json-tree__text">
      {key !== '' && (
        <>
          <span className={`json-tree__key${typeof node.key === 'number' ? ' json-tree__key--index' : ''}`}>
            {key}
          </span>
          <span className="json-tree__colon">: </span>
        </>
      )}
      {container ? (
        <>
          {!open && <span className="json-tree__preview">{previewText(node.value)} </span>}
          <span className="json-tree__size">{size}</span>
        </>
      ) : (
        <span className={`json-tree__value json-tree__value--${node.kind}`}>{leafText(node.value)}</span>
      )}
    </span>
  );
});

/** Guides that indent a row by its level (elements, not a style attribute, which the policy refuses). */
function Indent({ level }: { level: number }): ReactNode {
  const guides: ReactNode[] = [];
  for (let depth = 1; depth < level; depth += 1)
    guides.push(<span key={depth} className="json-tree__indent" />);
  return guides;
}

/**
 * A collapsible JSON tree for the API viewer, after the ARIA tree pattern: one tab stop, arrow keys
 * to move, open and close, Home/End. Children render only when their node opens, and containers of
 * more than 100 entries open into ranges, so a 5 MB answer stays responsive. The toolbar names the
 * focused node's path and copies it or its value as JSON.
 */
export function JsonTree({ value, label, defaultExpandDepth = 1 }: JsonTreeProps): ReactNode {
  const [state, setState] = useState(() => initialState(value));
  // A new answer starts a new tree (the state is reset during render, as React recommends).
  const current = Object.is(state.value, value) ? state : initialState(value);
  if (current !== state) setState(current);
  const { active, toggled, defaults } = current;
  const list = useRef<HTMLUListElement>(null);

  const root = useMemo(() => rootNode(value), [value]);
  const rows = useMemo(
    () =>
      visibleRows(
        root,
        (node) => (defaults && openByDefault(node, defaultExpandDepth)) !== toggled.has(node.id),
      ),
    [root, toggled, defaults, defaultExpandDepth],
  );
  const activeIndex = Math.max(
    0,
    rows.findIndex((row) => row.node.id === active.id),
  );
  const activeNode = rows[activeIndex]?.node ?? root;
  const path = activeNode.path;

  const toggle = (node: JsonNode): void => {
    setState((previous) => {
      const next = new Set(previous.toggled);
      if (!next.delete(node.id)) next.add(node.id);
      return { ...previous, toggled: next, active: node };
    });
  };
  const activate = (node: JsonNode): void => {
    setState((previous) => (previous.active.id === node.id ? previous : { ...previous, active: node }));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>, index: number): void => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const row = rows[index];
    const action = treeKeyAction(rows, index, event.key);
    if (row === undefined || action === null) return;
    event.preventDefault();
    if ('toggle' in action) toggle(row.node);
    else list.current?.querySelector<HTMLElement>(`:scope > [data-row="${String(action.focus)}"]`)?.focus();
  };

  return (
    <div className="json-tree">
      <div className="json-tree__bar">
        <p className="json-tree__path">
          Path: <code>{pathLabel(path)}</code>
        </p>
        <div className="json-tree__actions">
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={path === ''}
            onClick={() => {
              void copyText(path, `Path ${path} copied to the clipboard.`);
            }}
          >
            Copy path
          </button>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => {
              void copyText(nodeJson(activeNode), 'Value copied to the clipboard as JSON.');
            }}
          >
            Copy value
          </button>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => {
              setState({ ...initialState(value), defaults: false });
            }}
          >
            Collapse all
          </button>
        </div>
      </div>
      <ul ref={list} role="tree" aria-label={label} className="json-tree__view">
        {rows.map((row, index) => (
          <li
            key={row.node.id}
            role="treeitem"
            className="json-tree__item"
            aria-level={row.level}
            aria-setsize={row.setSize}
            aria-posinset={row.posInSet}
            aria-expanded={row.expandable ? row.open : undefined}
            tabIndex={index === activeIndex ? 0 : -1}
            data-row={index}
            onFocus={() => {
              activate(row.node);
            }}
            onKeyDown={(event) => {
              onKeyDown(event, index);
            }}
            onClick={() => {
              // Clicking focuses the item; it opens or closes unless the reader was selecting text.
              if (row.expandable && window.getSelection()?.isCollapsed !== false) toggle(row.node);
            }}
          >
            <Indent level={row.level} />
            <span className="json-tree__chevron" aria-hidden="true">
              {row.expandable ? (row.open ? '▾' : '▸') : ''}
            </span>
            <NodeLine row={row} />
          </li>
        ))}
      </ul>
    </div>
  );
}
