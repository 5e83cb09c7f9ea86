import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  childNodes,
  childPath,
  copyText,
  COPY_REFUSED_MESSAGE,
  GROUP_SIZE,
  isExpandable,
  keyLabel,
  kindOf,
  leafText,
  nodeJson,
  openByDefault,
  pathLabel,
  previewText,
  rangeLabel,
  rangeSpan,
  rootNode,
  sizeText,
  treeKeyAction,
  visibleRows,
  type JsonNode,
  type RangeNode,
  type ValueNode,
} from '../../src/lib/json-tree.ts';
import { $snackbars } from '../../src/lib/stores/snackbar.ts';

function labels(nodes: readonly JsonNode[]): string[] {
  return nodes.map((node) => (node.type === 'range' ? rangeLabel(node) : keyLabel(node)));
}

function asRange(node: JsonNode | undefined): RangeNode {
  if (node?.type !== 'range') throw new Error(`expected a range, got ${JSON.stringify(node?.type)}`);
  return node;
}

function asValue(node: JsonNode | undefined): ValueNode {
  if (node?.type !== 'value') throw new Error(`expected a value, got ${JSON.stringify(node?.type)}`);
  return node;
}

/** Follows the first child `levels` times, as opening the first node of each level does. */
function firstDescendant(node: JsonNode, levels: number): JsonNode {
  let current = node;
  for (let level = 0; level < levels; level += 1) {
    const first = childNodes(current)[0];
    if (first === undefined) throw new Error('no child');
    current = first;
  }
  return current;
}

describe('the JSON tree model', () => {
  it('names the type of every JSON value', () => {
    expect([{}, [], 'a', 1, true, null, undefined].map(kindOf)).toEqual([
      'object',
      'array',
      'string',
      'number',
      'boolean',
      'null',
      'undefined',
    ]);
  });

  it('writes paths as code reaches them', () => {
    expect(childPath('', 3)).toBe('[3]');
    expect(childPath('[3]', 'revenue')).toBe('[3].revenue');
    expect(childPath('', 'historical')).toBe('historical');
    expect(childPath('historical', 0)).toBe('historical[0]');
    expect(childPath('', 'Error Message')).toBe('["Error Message"]');
    expect(childPath('a', '1st')).toBe('a["1st"]');
    expect(childPath('a', 'say "hi"')).toBe('a["say \\"hi\\""]');
    expect(pathLabel('')).toBe('(whole answer)');
  });

  it('gives an envelope’s children their paths, kinds and values', () => {
    const answer = { symbol: 'AAPL', historical: [{ date: '2026-11-20', close: 1.5 }] };
    const children = childNodes(rootNode(answer)).map(asValue);
    expect(children.map((child) => [child.path, child.kind])).toEqual([
      ['symbol', 'string'],
      ['historical', 'array'],
    ]);
    const row = asValue(childNodes(asValue(children[1]))[0]);
    expect(row.path).toBe('historical[0]');
    expect(
      childNodes(row)
        .map(asValue)
        .map((child): unknown[] => [child.path, child.value]),
    ).toEqual([
      ['historical[0].date', '2026-11-20'],
      ['historical[0].close', 1.5],
    ]);
    expect(new Set([rootNode(answer), ...children].map((node) => node.id)).size).toBe(3);
  });

  it('has no children for values that are not containers, nor for empty ones', () => {
    for (const value of ['x', 1, null, true, [], {}]) {
      expect(isExpandable(rootNode(value))).toBe(false);
      expect(childNodes(rootNode(value))).toEqual([]);
    }
  });

  it('shows up to 100 entries as they are', () => {
    const children = childNodes(rootNode(Array.from({ length: GROUP_SIZE }, (_, index) => index)));
    expect(children).toHaveLength(100);
    expect(children.every((child) => child.type === 'value')).toBe(true);
  });

  it('picks range spans of powers of 100', () => {
    expect(rangeSpan(1)).toBe(1);
    expect(rangeSpan(100)).toBe(1);
    expect(rangeSpan(101)).toBe(100);
    expect(rangeSpan(10_000)).toBe(100);
    expect(rangeSpan(10_001)).toBe(10_000);
    expect(rangeSpan(1_000_000)).toBe(10_000);
    expect(rangeSpan(1_000_001)).toBe(1_000_000);
  });

  it('splits 101 items into [0 … 99] and [100 … 100]', () => {
    const children = childNodes(rootNode(Array.from({ length: 101 }, () => 0)));
    expect(labels(children)).toEqual(['[0 … 99]', '[100 … 100]']);
    expect(childNodes(asRange(children[1])).map((node) => node.path)).toEqual(['[100]']);
  });

  it('opens 10,000 rows as 100 ranges of 100 rows', () => {
    const rows = Array.from({ length: 10_000 }, (_, index) => ({ index }));
    const ranges = childNodes(rootNode(rows));
    expect(ranges).toHaveLength(100);
    expect(labels(ranges).slice(0, 2)).toEqual(['[0 … 99]', '[100 … 199]']);
    expect(rangeLabel(asRange(ranges.at(-1)))).toBe('[9900 … 9999]');
    const last = childNodes(asRange(ranges.at(-1)));
    expect(last).toHaveLength(100);
    expect(last.map((node) => node.path).slice(0, 2)).toEqual(['[9900]', '[9901]']);
    expect(asValue(last[0]).value).toEqual({ index: 9900 });
  });

  it('nests ranges for 1,000,000 items, never showing more than 100 nodes at a level', () => {
    const items = new Array<number>(1_000_000).fill(7);
    const top = childNodes(rootNode(items));
    expect(labels(top).slice(0, 2)).toEqual(['[0 … 9999]', '[10000 … 19999]']);
    expect(top).toHaveLength(100);
    const inner = childNodes(asRange(top[3]));
    expect(inner).toHaveLength(100);
    expect(labels(inner).slice(0, 2)).toEqual(['[30000 … 30099]', '[30100 … 30199]']);
    const leaves = childNodes(asRange(inner[0]));
    expect(leaves).toHaveLength(100);
    expect(leaves[0]?.path).toBe('[30000]');
    expect(leaves[0]?.depth).toBe(3);
  });

  it('ranges the rest unevenly and keeps ids unique across levels', () => {
    const items = new Array<number>(12_345).fill(0);
    const top = childNodes(rootNode(items));
    expect(labels(top)).toEqual(['[0 … 9999]', '[10000 … 12344]']);
    const second = childNodes(asRange(top[1]));
    expect(second).toHaveLength(24);
    expect(rangeLabel(asRange(second.at(-1)))).toBe('[12300 … 12344]');
    const ids = [...top, ...second, ...childNodes(asRange(top[0]))].map((node) => node.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('ranges a large object by its keys', () => {
    const quotes = Object.fromEntries(
      Array.from({ length: 150 }, (_, index) => [`S${String(index)}`, index]),
    );
    const ranges = childNodes(rootNode(quotes));
    expect(labels(ranges)).toEqual(['S0 … S99', 'S100 … S149']);
    const entries = childNodes(asRange(ranges[1]));
    expect(entries.map((node) => node.path).slice(0, 2)).toEqual(['S100', 'S101']);
    expect(asValue(entries[0]).value).toBe(100);
  });

  it('opens the root alone by default, and never a range', () => {
    const rows = Array.from({ length: 200 }, () => ({ a: 1 }));
    const root = rootNode(rows);
    expect(openByDefault(root, 1)).toBe(true);
    const [range] = childNodes(root);
    expect(openByDefault(asRange(range), 5)).toBe(false);
    const row = firstDescendant(root, 2);
    expect(openByDefault(row, 1)).toBe(false);
    expect(openByDefault(row, 3)).toBe(true);
    expect(openByDefault(rootNode('text'), 1)).toBe(false);
    expect(openByDefault(rootNode({}), 1)).toBe(false);
  });

  it('writes leaves as JSON: strings quoted and escaped, numbers in full', () => {
    expect(leafText('AAPL')).toBe('"AAPL"');
    expect(leafText('a "b"\nc')).toBe('"a \\"b\\"\\nc"');
    expect(leafText(383285000000)).toBe('383285000000');
    expect(leafText(0.30000000000000004)).toBe('0.30000000000000004');
    expect(leafText(null)).toBe('null');
    expect(leafText(false)).toBe('false');
    expect(leafText(undefined)).toBe('undefined');
  });

  it('previews a small row on one line, as devtools do', () => {
    expect(previewText({ symbol: 'AAPL', date: '2026-11-20', revenue: 391035000000 })).toBe(
      '{symbol: "AAPL", date: "2026-11-20", revenue: 391035000000}',
    );
    expect(previewText({ 'Error Message': 'Invalid key', nested: { a: 1 }, list: [1] })).toBe(
      '{"Error Message": "Invalid key", nested: {…}, list: […]}',
    );
    expect(previewText([1, 'two', null, true])).toBe('[1, "two", null, true]');
    expect(previewText([])).toBe('[]');
    expect(previewText({})).toBe('{}');
  });

  it('cuts a wide preview with "…" and long strings inside it', () => {
    const row = {
      symbol: 'AAPL',
      description: 'Apple Inc. designs, manufactures and markets smartphones',
      revenue: 391035000000,
      netIncome: 93736000000,
      eps: 6.11,
    };
    const preview = previewText(row);
    expect(preview).toBe('{symbol: "AAPL", description: "Apple Inc. designs, manu…", …}');
    expect(preview.length).toBeLessThanOrEqual(72);
    expect(previewText([{ a: 1 }, { a: 2 }, { a: 3 }], 12)).toBe('[{…}, {…}, …]');
  });

  it('shows the first entry even when it alone is wider than the preview', () => {
    expect(previewText({ a: 'x'.repeat(100), b: 1 }, 10)).toBe('{a: "xxxxxxxxxxxxxxxxxxxxxxxx…", …}');
  });

  it('reads only the first entries of a huge array to preview it', () => {
    const items = new Array<number>(1_000_000).fill(1);
    const spy = vi.spyOn(items, Symbol.iterator);
    const preview = previewText(items);
    expect(preview.endsWith(', …]')).toBe(true);
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it('counts keys and items', () => {
    expect(sizeText({ a: 1 })).toBe('1 key');
    expect(sizeText({ a: 1, b: 2 })).toBe('2 keys');
    expect(sizeText([])).toBe('0 items');
    expect(sizeText(new Array<number>(10_000).fill(0))).toBe('10,000 items');
    expect(sizeText('x')).toBe('');
  });

  it('names keys, indexes and the empty key', () => {
    const [empty, index] = childNodes(rootNode({ '': [5] }));
    expect(keyLabel(asValue(empty))).toBe('""');
    expect(keyLabel(asValue(childNodes(asValue(empty))[0] ?? index))).toBe('0');
    expect(keyLabel(rootNode(1))).toBe('');
  });

  it('copies a node’s value as indented JSON, and a range as its entries', () => {
    const rows = Array.from({ length: 150 }, (_, index) => index);
    const ranges = childNodes(rootNode(rows));
    expect(JSON.parse(nodeJson(asRange(ranges[1])))).toEqual(rows.slice(100));
    expect(nodeJson(rootNode({ a: [1] }))).toBe('{\n  "a": [\n    1\n  ]\n}');
    const object = Object.fromEntries(
      Array.from({ length: 101 }, (_, index) => [`k${String(index)}`, index]),
    );
    expect(nodeJson(asRange(childNodes(rootNode(object))[1]))).toBe('{\n  "k100": 100\n}');
    expect(nodeJson(rootNode(undefined))).toBe('undefined');
  });
});

describe('the rows shown and the keys', () => {
  const answer = { symbol: 'AAPL', historical: Array.from({ length: 150 }, (_, index) => ({ index })) };
  const root = rootNode(answer);
  const openIds = (ids: readonly string[]) => (node: JsonNode) => ids.includes(node.id);

  it('shows the root alone when nothing is open', () => {
    expect(visibleRows(root, () => false)).toEqual([
      { node: root, level: 1, setSize: 1, posInSet: 1, parent: -1, expandable: true, open: false },
    ]);
  });

  it('lists open nodes’ children depth first with their level, place and parent', () => {
    const rows = visibleRows(root, openIds(['v:', 'v:historical', 'r:historical:100-149']));
    expect(
      rows.map((row) => [row.node.type === 'range' ? rangeLabel(row.node) : row.node.path, row.level]),
    ).toEqual([
      ['', 1],
      ['symbol', 2],
      ['historical', 2],
      ['[0 … 99]', 3],
      ['[100 … 149]', 3],
      ...Array.from({ length: 50 }, (_, index) => [`historical[${String(100 + index)}]`, 4]),
    ]);
    expect(rows[2]).toMatchObject({ setSize: 2, posInSet: 2, parent: 0, open: true });
    expect(rows[4]).toMatchObject({ setSize: 2, posInSet: 2, parent: 2, open: true });
    expect(rows[5]).toMatchObject({ setSize: 50, posInSet: 1, parent: 4, expandable: true, open: false });
    expect(rows[1]).toMatchObject({ expandable: false, open: false });
  });

  it('never shows more than the opened nodes’ 100 children each', () => {
    const rows = visibleRows(rootNode(new Array<number>(1_000_000).fill(0)), (node) => node.depth === 0);
    expect(rows).toHaveLength(101);
  });

  it('moves with the arrows, Home and End, and stops at the ends', () => {
    const rows = visibleRows(root, openIds(['v:', 'v:historical']));
    expect(treeKeyAction(rows, 0, 'ArrowDown')).toEqual({ focus: 1 });
    expect(treeKeyAction(rows, 1, 'ArrowUp')).toEqual({ focus: 0 });
    expect(treeKeyAction(rows, 0, 'ArrowUp')).toBeNull();
    expect(treeKeyAction(rows, rows.length - 1, 'ArrowDown')).toBeNull();
    expect(treeKeyAction(rows, 3, 'Home')).toEqual({ focus: 0 });
    expect(treeKeyAction(rows, 0, 'End')).toEqual({ focus: rows.length - 1 });
    expect(treeKeyAction(rows, 0, 'a')).toBeNull();
  });

  it('opens, enters, closes and leaves nodes with Right, Left and Enter', () => {
    const rows = visibleRows(root, openIds(['v:', 'v:historical']));
    // 0 root (open), 1 symbol (leaf), 2 historical (open), 3 [0 … 99] (closed), 4 [100 … 149]
    expect(treeKeyAction(rows, 2, 'ArrowRight')).toEqual({ focus: 3 });
    expect(treeKeyAction(rows, 3, 'ArrowRight')).toEqual({ toggle: true });
    expect(treeKeyAction(rows, 1, 'ArrowRight')).toBeNull();
    expect(treeKeyAction(rows, 2, 'ArrowLeft')).toEqual({ toggle: true });
    expect(treeKeyAction(rows, 3, 'ArrowLeft')).toEqual({ focus: 2 });
    expect(treeKeyAction(rows, 1, 'ArrowLeft')).toEqual({ focus: 0 });
    expect(treeKeyAction(rows, 3, 'Enter')).toEqual({ toggle: true });
    expect(treeKeyAction(rows, 1, 'Enter')).toBeNull();
    expect(
      treeKeyAction(
        visibleRows(root, () => false),
        0,
        'ArrowLeft',
      ),
    ).toBeNull();
  });
});

describe('copying from the tree', () => {
  afterEach(() => {
    $snackbars.set([]);
  });

  it('writes the text and says so', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    await expect(copyText('[3].revenue', 'Path copied.', { writeText })).resolves.toBe(true);
    expect(writeText).toHaveBeenCalledWith('[3].revenue');
    expect($snackbars.get().map((snackbar) => snackbar.text)).toEqual(['Path copied.']);
  });

  it('says when the browser refuses or has no clipboard', async () => {
    await expect(
      copyText('x', 'Copied.', { writeText: () => Promise.reject(new Error('denied')) }),
    ).resolves.toBe(false);
    await expect(copyText('x', 'Copied.', undefined)).resolves.toBe(false);
    expect($snackbars.get().map((snackbar) => snackbar.text)).toEqual([
      COPY_REFUSED_MESSAGE,
      COPY_REFUSED_MESSAGE,
    ]);
  });
});
