import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS } from '../../src/server/data-api/endpoints/index.ts';
import { MCP_PATH } from '../../src/server/data-api/mcp.ts';
import {
  CALL_TOOL,
  DESCRIBE_TOOL,
  DIRECT_TOOLS,
  MCP_ROW_LIMIT,
  SEARCH_TOOL,
  toolList,
} from '../../src/server/data-api/mcp-tools.ts';
import { withEndpointLists } from '../../src/server/docs/endpoint-lists.ts';
import { DOCS_EXAMPLE_API_URL } from '../../src/server/docs/markdown-plugins.ts';

/*
 * The AI assistants guide quotes the MCP server: its address, its tools and the endpoints they call,
 * its row limit. These tests hold the page to the server, so renaming a tool fails here first.
 */

/** The guide as readers get it, its table of tools written out from the server's list. */
const guide = withEndpointLists(readFileSync(path.resolve('src/content/docs/ai-assistants.md'), 'utf8'));
const byPath = new Map(ALL_ENDPOINTS.map((endpoint) => [endpoint.path, endpoint]));

describe('the AI assistants guide', () => {
  it("gives the server's address in every client's configuration", () => {
    const url = `${DOCS_EXAMPLE_API_URL}${MCP_PATH}`;
    for (const heading of [
      '## Claude Code',
      '## Claude Desktop',
      '## Cursor',
      '## VS Code',
      '## Any other client',
    ]) {
      const start = guide.indexOf(heading);
      expect(start, heading).toBeGreaterThan(0);
      const end = guide.indexOf('\n## ', start + heading.length);
      expect(guide.slice(start, end), heading).toContain(url);
    }
  });

  it('lists each direct tool with the endpoint it calls, linked to its reference, and the discovery tools', () => {
    const rows = [
      ...guide.matchAll(
        /^\| `([a-z_]+)` \| \[`\/stable\/([a-z0-9/-]+)`\]\(\/developer\/docs\/stable\/\2\) \|$/gm,
      ),
    ].map((match) => ({
      name: match[1],
      path: match[2],
    }));
    expect(rows).toEqual(DIRECT_TOOLS.map(({ name, path: endpoint }) => ({ name, path: endpoint })));
    for (const name of [SEARCH_TOOL, DESCRIBE_TOOL, CALL_TOOL]) expect(guide).toContain(`**\`${name}\`**`);
  });

  it('names only tools the server offers, and states its row limit', () => {
    const offered = new Set(toolList((endpoint) => byPath.get(endpoint)).map((tool) => tool.name));
    const named = [...guide.matchAll(/`((?:get|search|describe|call)_[a-z_]+)`/g)].map(
      (match) => match[1] ?? '',
    );
    expect(named.filter((name) => !offered.has(name))).toEqual([]);
    expect(guide).toContain(`at most ${MCP_ROW_LIMIT} rows`);
  });
});
