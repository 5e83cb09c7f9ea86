import type { RoleChoice } from '../../lib/job-application-form.ts';

/**
 * The open roles as the accounts API knows them: the careers collection's files
 * (src/content/careers/<id>.md), read at build time, so an application can only name a role the
 * careers pages show, and the application keeps the title it was sent for. Closing a role is
 * removing its file. The pages read the same files through the content collection, which checks
 * every field; here only the id and the title are needed.
 */
const FILES = import.meta.glob<string>('../../content/careers/*.md', {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** A front matter scalar as written: plain, or in single or double quotes. */
function unquote(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length >= 2 && trimmed.startsWith("'") && trimmed.endsWith("'")) {
    return trimmed.slice(1, -1).replaceAll("''", "'");
  }
  if (trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')) {
    return trimmed.slice(1, -1).replaceAll('\\"', '"');
  }
  return trimmed;
}

/** The `title:` line of a Markdown file's front matter, or undefined without one. */
export function frontMatterTitle(text: string): string | undefined {
  const block = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1];
  if (block === undefined) return undefined;
  const line = block.split(/\r?\n/).find((entry) => entry.startsWith('title:'));
  return line === undefined ? undefined : unquote(line.slice('title:'.length));
}

const ROLES: readonly RoleChoice[] = Object.entries(FILES)
  .map(([path, text]) => ({
    id: (path.split('/').at(-1) ?? '').replace(/\.md$/, ''),
    title: frontMatterTitle(text) ?? '',
  }))
  .filter((role) => role.id !== '' && role.title !== '')
  .toSorted((a, b) => a.title.localeCompare(b.title, 'en'));

/** Every open role, by title. */
export function openRoles(): readonly RoleChoice[] {
  return ROLES;
}

/** The open role with this id, or undefined when there is none (closed or never open). */
export function findOpenRole(id: string): RoleChoice | undefined {
  return ROLES.find((role) => role.id === id);
}
