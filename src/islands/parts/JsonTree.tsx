import {
  createContext,
  use,
  useId,
  useMemo,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
} from 'react';
import {
  childNodes,
  copyText,
  isExpandable,
  keyLabel,
  leafText,
  nodeJson,
  openByDefault,
  pathLabel,
  previewText,
  rangeLabel,
  rootNode,
  sizeText,
  type JsonNode,
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

interface TreeContext {
  isOpen: (node: JsonNode) => boolean;
  activeId: string;
  toggle: (node: JsonNode) => void;
  activate: (node: JsonNode) => void;
}

const Context = createContext<TreeContext | null>(null);

function useTree(): TreeContext {
  const context = use(Context);
  if (context === null) throw new Error('A tree item is rendered outside its JsonTree');
  return context;
}

function initialState(value: unknown): TreeState {
  return { value, toggled: new Set(), defaults: true, active: rootNode(value) };
}

/** The tree items shown, in order: every rendered item is visible, closed nodes render no children. */
function visibleItems(from: HTMLElement): HTMLElement[] {
  const tree = from.closest('[role="tree"]');
  return tree === null ? [] : [...tree.querySelectorAll<HTMLElement>('[role="treeitem"]')];
}

/** Arrow keys, Home and End move the focus as the ARIA tree pattern says; Enter opens and closes. */
function onItemKey(
  event: KeyboardEvent<HTMLLIElement>,
  node: JsonNode,
  open: boolean,
  tree: TreeContext,
): void {
  if (event.target !== event.currentTarget || event.altKey || event.ctrlKey || event.metaKey) return;
  const item = event.currentTarget;
  const expandable = isExpandable(node);
  let target: HTMLElement | null | undefined;
  switch (event.key) {
    case 'ArrowDown':
    case 'ArrowUp': {
      const items = visibleItems(item);
      const index = items.indexOf(item);
      target = items[event.key === 'ArrowDown' ? index + 1 : index - 1];
      break;
    }
    case 'Home':
      target = visibleItems(item)[0];
      break;
    case 'End':
      target = visibleItems(item).at(-1);
      break;
    case 'ArrowRight':
      if (!expandable) return;
      if (!open) tree.toggle(node);
      else target = item.querySelector<HTMLElement>(':scope > [role="group"] > [role="treeitem"]');
      break;
    case 'ArrowLeft':
      if (expandable && open) tree.toggle(node);
      else target = item.parentElement?.closest<HTMLElement>('[role="treeitem"]');
      break;
    case 'Enter':
      if (!expandable) return;
      tree.toggle(node);
      break;
    default:
      return;
  }
  event.preventDefault();
  target?.focus();
}

function NodeLine({ node, open }: { node: JsonNode; open: boolean }): ReactNode {
  if (node.type === 'range') return <span className="json-tree__key">{rangeLabel(node)}</span>;
  const key = keyLabel(node);
  const container = node.kind === 'object' || node.kind === 'array';
  const size = sizeText(node.value);
  return (
    <>
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
          {!open && <span className="json-tree__preview">{previewText(node.value)}</span>}
          <span className="json-tree__size">{open ? size : ` ${size}`}</span>
        </>
      ) : (
        <span className={`json-tree__value json-tree__value--${node.kind}`}>{leafText(node.value)}</span>
      )}
    </>
  );
}

function TreeItem({ node }: { node: JsonNode }): ReactNode {
  const tree = useTree();
  const lineId = useId();
  const expandable = isExpandable(node);
  const open = expandable && tree.isOpen(node);
  const children = useMemo(() => (open ? childNodes(node) : []), [node, open]);
  return (
    <li
      role="treeitem"
      className="json-tree__item"
      aria-labelledby={lineId}
      aria-expanded={expandable ? open : undefined}
      tabIndex={node.id === tree.activeId ? 0 : -1}
      onFocus={(event) => {
        if (event.target === event.currentTarget) tree.activate(node);
      }}
      onKeyDown={(event) => {
        onItemKey(event, node, open, tree);
      }}
    >
      <div
        className="json-tree__line"
        onClick={(event: MouseEvent<HTMLDivElement>) => {
          // The click focuses the item (it is the focusable ancestor); a text selection is left alone.
          if (expandable && window.getSelection()?.isCollapsed !== false) tree.toggle(node);
          event.currentTarget.parentElement?.focus();
        }}
      >
        <span className="json-tree__chevron" aria-hidden="true">
          {expandable ? (open ? '▾' : '▸') : ''}
        </span>
        <span id={lineId}>
          <NodeLine node={node} open={open} />
        </span>
      </div>
      {open && (
        <ul role="group" className="json-tree__group">
          {children.map((child) => (
            <TreeItem key={child.id} node={child} />
          ))}
        </ul>
      )}
    </li>
  );
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
  const current = state.value === value ? state : initialState(value);
  if (current !== state) setState(current);

  const context = useMemo<TreeContext>(
    () => ({
      activeId: current.active.id,
      isOpen: (node) =>
        (current.defaults && openByDefault(node, defaultExpandDepth)) !== current.toggled.has(node.id),
      toggle: (node) => {
        setState((previous) => {
          const toggled = new Set(previous.toggled);
          if (!toggled.delete(node.id)) toggled.add(node.id);
          return { ...previous, toggled, active: node };
        });
      },
      activate: (node) => {
        setState((previous) => (previous.active.id === node.id ? previous : { ...previous, active: node }));
      },
    }),
    [current, defaultExpandDepth],
  );
  const root = useMemo(() => rootNode(value), [value]);
  const { active } = current;
  const path = active.path;

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
              void copyText(nodeJson(active), 'Value copied to the clipboard as JSON.');
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
      <Context value={context}>
        <ul role="tree" aria-label={label} className="json-tree__view">
          <TreeItem node={root} />
        </ul>
      </Context>
    </div>
  );
}
