import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import sax from 'sax';
import { describe, expect, it } from 'vitest';
import { SITE_NAME } from '../../src/lib/routes.ts';
import { SPREADSHEET_FUNCTIONS, SPREADSHEET_NAMESPACE } from '../../src/lib/spreadsheet/functions.ts';
import {
  ADD_IN_DOCS_PATH,
  ADD_IN_ICON_SIZES,
  ADD_IN_ID,
  addInManifest,
} from '../../src/lib/spreadsheet/manifest.ts';
import { functionsMetadata } from '../../src/lib/spreadsheet/metadata.ts';

/*
 * The add-in's manifest and functions.json as Excel reads them. No offline XSD of the add-in manifest
 * ships in an npm package (office-addin-manifest validates through Microsoft's online service), so
 * this is a structural check: well-formed XML (fast-xml-parser's validator), the elements Excel
 * requires in the order of the schema's sequences (OfficeAppManifestV1_1.xsd and
 * TaskPaneAppVersionOverridesV1_0.xsd, with the shared runtime's Runtimes element first in Host),
 * every address absolute under the site and served by a route of this site, every resource reference
 * defined, the id stable, and the function metadata matching the definitions and Excel's naming rules.
 */

const SITE = 'https://data.example.com';
const xml = addInManifest({ siteUrl: SITE });

/** An element in preserveOrder form: its name maps to its children; attributes under ':@'. */
type Node = Record<string, unknown> & { ':@'?: Record<string, string> };

const parsed = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
}).parse(xml) as Node[];

function nameOf(node: Node): string {
  const [name] = Object.keys(node).filter((key) => key !== ':@');
  return name ?? '';
}

function childrenOf(node: Node): Node[] {
  const value = node[nameOf(node)];
  return Array.isArray(value) ? (value as Node[]).filter((child) => !('#text' in child)) : [];
}

function child(node: Node, name: string): Node {
  const found = childrenOf(node).find((candidate) => nameOf(candidate) === name);
  if (found === undefined) throw new Error(`<${nameOf(node)}> has no <${name}>`);
  return found;
}

function textOf(node: Node): string {
  const value = node[nameOf(node)];
  const text = Array.isArray(value) ? (value as Node[]).find((part) => '#text' in part) : undefined;
  const raw = text?.['#text'];
  return typeof raw === 'string' ? raw : '';
}

function all(node: Node): Node[] {
  return [node, ...childrenOf(node).flatMap(all)];
}

/** Whether `names` appear in `order`'s order (each at most once, none outside it). */
function inSchemaOrder(names: readonly string[], order: readonly string[]): boolean {
  let last = -1;
  for (const name of names) {
    const index = order.indexOf(name);
    if (index <= last) return false;
    last = index;
  }
  return true;
}

const root = parsed.find((node) => nameOf(node) === 'OfficeApp');
if (root === undefined) throw new Error('the manifest has no <OfficeApp>');

/** The page file of this site that serves `pathname`, if any (src/pages, Astro's file routing). */
function routeFile(pathname: string): string | undefined {
  const pages = path.resolve('src/pages');
  const dir = path.join(pages, path.dirname(pathname));
  const base = path.basename(pathname);
  for (const candidate of [`${base}.astro`, `${base}.ts`, `${base}/index.astro`]) {
    if (existsSync(path.join(dir, candidate))) return path.join(dir, candidate);
  }
  if (!existsSync(dir)) return undefined;
  for (const file of readdirSync(dir)) {
    const pattern = file.replace(/\.(ts|astro)$/, '');
    if (!pattern.includes('[')) continue;
    const regex = new RegExp(`^${pattern.replace(/[.]/g, '\\.').replace(/\[[^\]]+\]/g, '([^/]+)')}$`);
    if (regex.test(base)) return path.join(dir, file);
  }
  return undefined;
}

describe('the add-in manifest', () => {
  it('is well-formed XML with the add-in manifest’s namespaces', () => {
    // sax in strict mode throws at the first error of well-formedness.
    const checker = sax.parser(true, { xmlns: true });
    expect(() => checker.write(xml).close()).not.toThrow();
    expect(() => sax.parser(true).write('<OfficeApp><Id></OfficeApp>').close()).toThrow();
    expect(root[':@']?.xmlns).toBe('http://schemas.microsoft.com/office/appforoffice/1.1');
    expect(root[':@']?.['xsi:type']).toBe('TaskPaneApp');
  });

  it('has the required elements of OfficeApp in the schema’s order', () => {
    const order = [
      'Id',
      'AlternateId',
      'Version',
      'ProviderName',
      'DefaultLocale',
      'DisplayName',
      'Description',
      'IconUrl',
      'HighResolutionIconUrl',
      'SupportUrl',
      'AppDomains',
      'Hosts',
      'Requirements',
      'DefaultSettings',
      'Permissions',
      'VersionOverrides',
    ];
    const names = childrenOf(root).map(nameOf);
    expect(inSchemaOrder(names, order), names.join(' ')).toBe(true);
    for (const required of ['Id', 'Version', 'ProviderName', 'DefaultLocale', 'DisplayName', 'Description']) {
      expect(names).toContain(required);
    }
    expect(names).toEqual(expect.arrayContaining(['DefaultSettings', 'Permissions', 'VersionOverrides']));
    expect(textOf(child(root, 'ProviderName'))).toBe(SITE_NAME);
  });

  it('keeps the same GUID, so Excel sees every version as the same add-in', () => {
    expect(ADD_IN_ID).toBe('5f0c8a3e-2d7b-4c61-9a4e-7b1d3c9e6f20');
    expect(textOf(child(root, 'Id'))).toBe(ADD_IN_ID);
    expect(ADD_IN_ID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('requires the custom functions runtime and the shared runtime', () => {
    const sets = childrenOf(child(child(root, 'Requirements'), 'Sets')).map((set) => set[':@']?.Name);
    expect(sets).toEqual(expect.arrayContaining(['CustomFunctionsRuntime', 'SharedRuntime']));
  });

  it('declares the custom functions with Script, Page, Metadata and Namespace in order, in the shared runtime', () => {
    const overrides = child(root, 'VersionOverrides');
    expect(childrenOf(overrides).map(nameOf)).toEqual(['Hosts', 'Resources']);
    const host = child(child(overrides, 'Hosts'), 'Host');
    expect(host[':@']?.['xsi:type']).toBe('Workbook');
    expect(childrenOf(host).map(nameOf)).toEqual(['Runtimes', 'AllFormFactors', 'DesktopFormFactor']);
    const runtime = child(child(host, 'Runtimes'), 'Runtime');
    expect(runtime[':@']).toMatchObject({ resid: 'Taskpane.Url', lifetime: 'long' });
    const point = child(child(host, 'AllFormFactors'), 'ExtensionPoint');
    expect(point[':@']?.['xsi:type']).toBe('CustomFunctions');
    expect(childrenOf(point).map(nameOf)).toEqual(['Script', 'Page', 'Metadata', 'Namespace']);
    // The shared runtime loads the task pane as the functions' page.
    expect(child(child(point, 'Page'), 'SourceLocation')[':@']?.resid).toBe('Taskpane.Url');
    const desktop = childrenOf(child(host, 'DesktopFormFactor')).map(nameOf);
    expect(inSchemaOrder(desktop, ['GetStarted', 'FunctionFile', 'ExtensionPoint'])).toBe(true);
  });

  it('defines every resource it refers to, and names the functions after the brand', () => {
    const resources = child(child(root, 'VersionOverrides'), 'Resources');
    const defined = new Map(
      all(resources)
        .filter((node) => node[':@']?.id !== undefined)
        .map((node) => [node[':@']?.id ?? '', node[':@']?.DefaultValue ?? '']),
    );
    const referenced = all(root)
      .map((node) => node[':@']?.resid)
      .filter((resid): resid is string => resid !== undefined);
    expect(referenced.length).toBeGreaterThan(10);
    for (const resid of referenced) expect(defined.has(resid), resid).toBe(true);
    expect(defined.get('Functions.Namespace')).toBe(SPREADSHEET_NAMESPACE);
    expect(SPREADSHEET_NAMESPACE).toBe(SITE_NAME.toUpperCase().replace(/[^A-Z0-9]/g, ''));
  });

  it('gives only absolute https addresses under the site, each served by a route of this site', () => {
    const urls = all(root).flatMap((node) => {
      const value = node[':@']?.DefaultValue;
      const name = nameOf(node);
      const isUrl =
        name.endsWith('Url') || name === 'SourceLocation' || name === 'bt:Image' || name === 'bt:Url';
      return [
        ...(isUrl && value !== undefined ? [value] : []),
        ...(name === 'AppDomain' ? [textOf(node)] : []),
      ];
    });
    expect(urls.length).toBeGreaterThan(8);
    for (const url of urls) {
      expect(url, url).toMatch(/^https:\/\//);
      expect(url.startsWith(SITE), url).toBe(true);
      const { pathname } = new URL(url);
      if (pathname === '/') continue; // the AppDomain
      expect(routeFile(pathname), `${pathname} has no page`).toBeDefined();
    }
    const icons = urls
      .filter((url) => url.endsWith('.png'))
      .map((url) => Number(/icon-(\d+)\.png$/.exec(url)?.[1]));
    for (const size of icons) expect(ADD_IN_ICON_SIZES).toContain(size);
    expect(urls).toContain(`${SITE}${ADD_IN_DOCS_PATH}`);
  });

  it('uses the configured site address as it is, also a local http one', () => {
    const local = addInManifest({ siteUrl: 'http://localhost:4321/' });
    expect(local).toContain('<SourceLocation DefaultValue="http://localhost:4321/excel-add-in/taskpane"/>');
    expect(local).not.toContain(SITE);
  });
});

describe('functions.json', () => {
  const metadata = functionsMetadata(`${SITE}${ADD_IN_DOCS_PATH}`);

  it('lists every function definition under its own id and name', () => {
    expect(metadata.functions.map((fn) => fn.id)).toEqual(SPREADSHEET_FUNCTIONS.map((fn) => fn.name));
    expect(metadata.functions.map((fn) => fn.name)).toEqual(SPREADSHEET_FUNCTIONS.map((fn) => fn.name));
    for (const [index, fn] of metadata.functions.entries()) {
      const definition = SPREADSHEET_FUNCTIONS[index];
      expect(fn.parameters.map((p) => p.name)).toEqual(definition?.parameters.map((p) => p.name));
      expect(fn.result.dimensionality).toBe(definition?.dimensionality);
      expect(fn.helpUrl).toBe(`${SITE}${ADD_IN_DOCS_PATH}#function-${fn.name.toLowerCase()}`);
    }
  });

  it('follows Excel’s naming rules', () => {
    const ids = new Set<string>();
    for (const fn of metadata.functions) {
      // id: letters, digits and periods; name: starts with a letter, letters, digits, periods and
      // underscores, at least three characters, not a cell reference (A1 or R1C1 style).
      expect(fn.id).toMatch(/^[A-Za-z0-9.]+$/);
      expect(fn.name).toMatch(/^[A-Za-z][A-Za-z0-9._]{2,127}$/);
      expect(fn.name).not.toMatch(/^[A-Za-z]{1,3}\d+$/);
      expect(fn.name).not.toMatch(/^R\d*C\d*$/i);
      expect(ids.has(fn.id.toUpperCase())).toBe(false);
      ids.add(fn.id.toUpperCase());
      const names = new Set<string>();
      let optionalSeen = false;
      for (const parameter of fn.parameters) {
        expect(parameter.name).toMatch(/^[A-Za-z][A-Za-z0-9_]*$/);
        expect(names.has(parameter.name)).toBe(false);
        names.add(parameter.name);
        // Optional parameters come after all required ones.
        if (parameter.optional === true) optionalSeen = true;
        else expect(optionalSeen, `${fn.name}(${parameter.name})`).toBe(false);
      }
    }
    expect(SPREADSHEET_NAMESPACE).toMatch(/^[A-Z][A-Z0-9]*$/);
  });
});
