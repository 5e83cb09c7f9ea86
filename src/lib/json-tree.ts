/**
 * The model of the API viewer's JSON tree (`src/islands/parts/JsonTree.tsx`): nodes, their paths,
 * their one-line previews and their children. Answers reach 5 MB and 10,000 rows, so nothing here
 * walks a whole value: a node's children are made only when it is opened, and a container with more
 * than {@link GROUP_SIZE} entries opens into ranges of entries (`[0 … 99]`, `[100 … 199]`, nested
 * again for larger ones, as browser devtools do), so no opening ever shows more than 100 nodes.
 */
import { showSnackbar } from './stores/snackbar.ts';

/** Most children one node shows; larger containers open into ranges of at most this many. */
export const GROUP_SIZE = 100;

/** A value's type as the tree colours it. */
export type JsonKind = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null' | 'undefined' | 'other';

/** An object or array, the values that have children. */
export type JsonContainer = readonly unknown[] | Readonly<Record<string, unknown>>;

interface NodeBase {
  /** Unique within one tree: what the tree keeps its open nodes and its focus by. */
  id: string;
  /** Where the node sits, as code would reach it (`[3].revenue`); '' for the whole value. */
  path: string;
  /** 0 for the root; a range counts as a level, as it does on screen. */
  depth: number;
}

/** A value in the answer: the root, an array item or an object property. */
export interface ValueNode extends NodeBase {
  type: 'value';
  /** The property name or array index; null for the root. */
  key: string | number | null;
  kind: JsonKind;
  value: unknown;
}

/** A run of a large container's entries (`[0 … 99]`), shown in its place so each level stays short. */
export interface RangeNode extends NodeBase {
  type: 'range';
  container: JsonContainer;
  /** The object's keys in order; null for an array (its entries are its indexes). */
  keys: readonly string[] | null;
  /** First and last entry, both included. */
  start: number;
  end: number;
}

export type JsonNode = ValueNode | RangeNode;

/** The type a value is shown as. */
export function kindOf(value: unknown): JsonKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'object':
      return 'object';
    case 'string':
      return 'string';
    case 'number':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'undefined':
      return 'undefined';
    default:
      return 'other';
  }
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * The path of a child as code reaches it: `[3]` for an index, `.revenue` for a property name that is
 * an identifier (without the dot at the root, `revenue`), `["Error Message"]` for any other.
 */
export function childPath(parentPath: string, key: string | number): string {
  if (typeof key === 'number') return `${parentPath}[${String(key)}]`;
  if (IDENTIFIER.test(key)) return parentPath === '' ? key : `${parentPath}.${key}`;
  return `${parentPath}[${JSON.stringify(key)}]`;
}

/** The node of a whole value. */
export function rootNode(value: unknown): ValueNode {
  return { type: 'value', id: 'v:', path: '', depth: 0, key: null, kind: kindOf(value), value };
}

/** Entries of a container: items of an array, own enumerable properties of an object. */
function entryCount(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  if (kindOf(value) === 'object') return Object.keys(value as object).length;
  return 0;
}

/** True when the node has children to show: a non-empty object or array, or a range. */
export function isExpandable(node: JsonNode): boolean {
  return node.type === 'range' || entryCount(node.value) > 0;
}

/**
 * How many entries one child range spans for a run of `count` entries: the smallest power of
 * {@link GROUP_SIZE} that leaves at most GROUP_SIZE ranges (100 for up to 10,000 entries, 10,000 for
 * up to 1,000,000, …); a run of at most GROUP_SIZE entries is not split (1).
 */
export function rangeSpan(count: number): number {
  if (count <= GROUP_SIZE) return 1;
  let span = GROUP_SIZE;
  while (count > span * GROUP_SIZE) span *= GROUP_SIZE;
  return span;
}

function entryNode(
  container: JsonContainer,
  keys: readonly string[] | null,
  index: number,
  parentPath: string,
  depth: number,
): ValueNode {
  const key = keys === null ? index : (keys[index] ?? '');
  const value =
    keys === null ? (container as readonly unknown[])[index] : (container as Record<string, unknown>)[key];
  const path = childPath(parentPath, key);
  return { type: 'value', id: `v:${path}`, path, depth, key, kind: kindOf(value), value };
}

/** The children of entries `start` to `end` of a container: the entries, or ranges of them. */
function runChildren(
  container: JsonContainer,
  keys: readonly string[] | null,
  start: number,
  end: number,
  path: string,
  depth: number,
): JsonNode[] {
  const span = rangeSpan(end - start + 1);
  const children: JsonNode[] = [];
  if (span === 1) {
    for (let index = start; index <= end; index += 1)
      children.push(entryNode(container, keys, index, path, depth));
    return children;
  }
  for (let first = start; first <= end; first += span) {
    const last = Math.min(first + span - 1, end);
    children.push({
      type: 'range',
      id: `r:${path}:${String(first)}-${String(last)}`,
      path,
      depth,
      container,
      keys,
      start: first,
      end: last,
    });
  }
  return children;
}

/**
 * A node's children, made when the node opens: at most {@link GROUP_SIZE} of them, entries or ranges
 * of entries. A value that is not a container has none.
 */
export function childNodes(node: JsonNode): JsonNode[] {
  const depth = node.depth + 1;
  if (node.type === 'range')
    return runChildren(node.container, node.keys, node.start, node.end, node.path, depth);
  const { value } = node;
  if (Array.isArray(value)) return runChildren(value, null, 0, value.length - 1, node.path, depth);
  if (node.kind !== 'object') return [];
  const keys = Object.keys(value as object);
  return runChildren(value as Record<string, unknown>, keys, 0, keys.length - 1, node.path, depth);
}

/**
 * Whether a node starts open: values above `depth` levels (1: the root alone). Ranges never do, so a
 * deeper default cannot open thousands of rows of a large answer.
 */
export function openByDefault(node: JsonNode, depth: number): boolean {
  return node.type === 'value' && node.depth < depth && isExpandable(node);
}

/**
 * One line of the tree as shown: the tree is rendered flat (each item names its level, its place
 * among its siblings and whether it is open), so an item's accessible name is its own line and never
 * its children's text, and the keys move through this list.
 */
export interface TreeRow {
  node: JsonNode;
  /** 1 for the root, as aria-level counts. */
  level: number;
  /** Its siblings, itself included, and its place among them (from 1). */
  setSize: number;
  posInSet: number;
  /** The row of its parent; -1 for the root. */
  parent: number;
  expandable: boolean;
  open: boolean;
}

/**
 * The rows shown: the root, and the children of every open node after it, depth first. Closed
 * nodes' children are never made, so this is as long as what is shown (100 rows per opened node at
 * most), however large the value.
 */
export function visibleRows(root: JsonNode, isOpen: (node: JsonNode) => boolean): TreeRow[] {
  const rows: TreeRow[] = [];
  const visit = (node: JsonNode, level: number, setSize: number, posInSet: number, parent: number): void => {
    const expandable = isExpandable(node);
    const open = expandable && isOpen(node);
    const index = rows.length;
    rows.push({ node, level, setSize, posInSet, parent, expandable, open });
    if (!open) return;
    const children = childNodes(node);
    children.forEach((child, position) => {
      visit(child, level + 1, children.length, position + 1, index);
    });
  };
  visit(root, 1, 1, 1, -1);
  return rows;
}

/** What a key does on a row: move the focus to another row, open or close this one, or nothing. */
export type TreeKeyAction = { focus: number } | { toggle: true } | null;

/**
 * The ARIA tree pattern's keys on row `index`: Down/Up the next/previous row, Home/End the first/last,
 * Right opens a closed node or enters an open one, Left closes an open node or goes to the parent,
 * Enter opens and closes.
 */
export function treeKeyAction(rows: readonly TreeRow[], index: number, key: string): TreeKeyAction {
  const row = rows[index];
  if (row === undefined) return null;
  const focus = (target: number): TreeKeyAction =>
    target >= 0 && target < rows.length ? { focus: target } : null;
  switch (key) {
    case 'ArrowDown':
      return focus(index + 1);
    case 'ArrowUp':
      return focus(index - 1);
    case 'Home':
      return focus(0);
    case 'End':
      return focus(rows.length - 1);
    case 'ArrowRight':
      if (!row.expandable) return null;
      return row.open ? focus(index + 1) : { toggle: true };
    case 'ArrowLeft':
      return row.open ? { toggle: true } : focus(row.parent);
    case 'Enter':
      return row.expandable ? { toggle: true } : null;
    default:
      return null;
  }
}

/** A range's name: `[100 … 199]` for array items, `revenue … symbol` for object properties. */
export function rangeLabel(node: RangeNode): string {
  if (node.keys === null) return `[${String(node.start)} … ${String(node.end)}]`;
  return `${node.keys[node.start] ?? ''} … ${node.keys[node.end] ?? ''}`;
}

/** How a node is named before its value: the property, the index, or '' for the root. */
export function keyLabel(node: ValueNode): string {
  if (node.key === null) return '';
  if (typeof node.key === 'number') return String(node.key);
  return node.key === '' ? '""' : node.key;
}

/** Longest a string shows inside a preview before it is cut with "…". */
const PREVIEW_STRING_LENGTH = 24;
/** Length after which a preview stops adding entries. */
export const PREVIEW_LENGTH = 72;

/** A value as it reads: strings quoted and escaped as JSON, numbers in full, `null`, `true`. */
export function leafText(value: unknown): string {
  switch (kindOf(value)) {
    case 'string':
      return JSON.stringify(value);
    case 'undefined':
      return 'undefined';
    case 'number':
    case 'boolean':
    case 'null':
      return String(value);
    case 'array':
      return '[…]';
    case 'object':
      return '{…}';
    default:
      return typeof value === 'symbol' ? value.toString() : typeof value;
  }
}

function previewEntry(value: unknown): string {
  if (typeof value === 'string' && value.length > PREVIEW_STRING_LENGTH) {
    return `${JSON.stringify(value.slice(0, PREVIEW_STRING_LENGTH)).slice(0, -1)}…"`;
  }
  return leafText(value);
}

/**
 * A closed container in one line, as devtools show it: `{symbol: "AAPL", revenue: 391035000000, …}`,
 * `[1, 2, 3, …]`, `[{…}, {…}, …]`; nested containers as `{…}`/`[…]`, long strings cut. It reads only
 * the first few entries, however large the value.
 */
export function previewText(value: unknown, maxLength: number = PREVIEW_LENGTH): string {
  const isArray = Array.isArray(value);
  if (!isArray && kindOf(value) !== 'object') return leafText(value);
  const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
  // A few more entries than can fit are read, never the whole value.
  const most = Math.ceil(maxLength / 4);
  const entries: string[] = [];
  let complete = true;
  if (isArray) {
    for (const item of value) {
      if (entries.length === most) {
        complete = false;
        break;
      }
      entries.push(previewEntry(item));
    }
  } else {
    for (const key in value as object) {
      if (!Object.hasOwn(value as object, key)) continue;
      if (entries.length === most) {
        complete = false;
        break;
      }
      const name = IDENTIFIER.test(key) ? key : JSON.stringify(key);
      entries.push(`${name}: ${previewEntry((value as Record<string, unknown>)[key])}`);
    }
  }
  // Entries while they fit (the first always shows), then "…" when any is left out.
  const parts: string[] = [];
  let length = 2;
  for (const entry of entries) {
    if (parts.length > 0 && length + entry.length > maxLength) break;
    parts.push(entry);
    length += entry.length + 2;
  }
  if (!complete || parts.length < entries.length) parts.push('…');
  return `${open}${parts.join(', ')}${close}`;
}

function plural(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

/** The size of a container (`12 keys`, `1 item`, `10,000 items`); '' for other values. */
export function sizeText(value: unknown): string {
  if (Array.isArray(value)) return plural(value.length, 'item', 'items');
  if (kindOf(value) === 'object') return plural(Object.keys(value as object).length, 'key', 'keys');
  return '';
}

/** How the path reads in the viewer's toolbar: the root has no path, so it is named. */
export function pathLabel(path: string): string {
  return path === '' ? '(whole answer)' : path;
}

/** A node's value as JSON text, indented as the JSON download is; a range holds just its entries. */
export function nodeJson(node: JsonNode): string {
  if (node.type === 'value') {
    const text = JSON.stringify(node.value, null, 2) as string | undefined;
    return text ?? leafText(node.value);
  }
  const { container, keys, start, end } = node;
  if (keys === null) return JSON.stringify((container as readonly unknown[]).slice(start, end + 1), null, 2);
  const record = container as Readonly<Record<string, unknown>>;
  return JSON.stringify(
    Object.fromEntries(keys.slice(start, end + 1).map((key) => [key, record[key]])),
    null,
    2,
  );
}

/** Said after copying; failures say the browser refused. */
export const COPY_REFUSED_MESSAGE =
  'Your browser did not allow copying. Select the text and copy it instead.';

/** The page's clipboard, absent outside secure pages and in old browsers. */
function browserClipboard(): Pick<Clipboard, 'writeText'> | undefined {
  if (typeof navigator === 'undefined') return undefined;
  const { clipboard } = navigator as { clipboard?: Clipboard };
  return clipboard;
}

/** Copies text and says so in a snackbar (`done`), or that the browser refused. */
export async function copyText(
  text: string,
  done: string,
  clipboard: Pick<Clipboard, 'writeText'> | undefined = browserClipboard(),
): Promise<boolean> {
  try {
    if (clipboard === undefined) throw new Error('The Clipboard API is not available');
    await clipboard.writeText(text);
    showSnackbar(done, { type: 'success' });
    return true;
  } catch {
    showSnackbar(COPY_REFUSED_MESSAGE, { type: 'error' });
    return false;
  }
}
