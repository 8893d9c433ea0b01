// Drives a real `quarry serve` with the official MCP TypeScript SDK client (@modelcontextprotocol/sdk,
// pinned by package-lock.json) over Streamable HTTP: initialize, the tools each token sees, every
// tool called (the client holds each result to the tool's output schema), progress, cancellation,
// grants through tools and resources, and refusals as typed tool errors; and the MCP Inspector's
// command line (@modelcontextprotocol/inspector --cli, pinned too), headless, lists and calls them.
// The corpora behind them are set up with the project's TypeScript client (clients/typescript).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { QuarryClient } from '@quarry/client';
import { startServer } from '../clients/typescript/test/server.mjs';

const ADMIN = 'mcp-admin-token';
const PUBLIC_ONLY = 'mcp-public-token';
const READER = 'mcp-reader-token';
const here = dirname(fileURLToPath(import.meta.url));
let server, url, revision;
const clients = [];

before(async () => {
  server = await startServer({
    admin: { token: ADMIN, grants: [{ corpus: '*', scopes: ['search', 'index', 'manage'] }] },
    public: { token: PUBLIC_ONLY, grants: [{ corpus: 'handbook', sources: ['public/*'], scopes: ['search', 'index'] }] },
    reader: { token: READER, grants: [{ corpus: 'handbook', scopes: ['search'] }] },
  });
  url = server.url;
  // The corpora the tools read are set up through Quarry's own API, with the project's TypeScript client.
  const quarry = new QuarryClient({ url, token: ADMIN });
  await quarry.createCorpus({ corpus: 'handbook' });
  await quarry.createCorpus({ corpus: 'finance' });
  await quarry.indexSource({ corpus: 'handbook', source: 'public/leave.md', title: 'Leave policy',
    text: 'Parental leave is twenty weeks. Annual leave is twenty five days.' });
  revision = (await quarry.indexSource({ corpus: 'handbook', source: 'private/salaries.md',
    title: 'Salaries', text: 'Parental leave pay and salaries are confidential.' })).revision;
  await quarry.indexSource({ corpus: 'finance', source: 'budget.md',
    text: 'The leave budget is confidential.' });
});

after(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await server?.stop();
});

/** A connected client of the official SDK, its requests carrying `token`. */
async function connect(token) {
  const client = new Client({ name: 'quarry-mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url + '/mcp'), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** A tool error's envelope: isError, and Quarry's error as the text content. */
function refusal(result) {
  assert.equal(result.isError, true, JSON.stringify(result));
  assert.equal(result.structuredContent, undefined);
  return JSON.parse(result.content[0].text).error;
}

test('initialize agrees on the newest protocol revision and names the server', async () => {
  const client = await connect(ADMIN);
  assert.equal(client.getServerVersion().name, 'quarry');
  assert.ok(client.getServerCapabilities().tools);
  assert.ok(client.getServerCapabilities().resources);
  assert.equal(LATEST_PROTOCOL_VERSION, '2025-11-25');
  assert.equal(client.transport.protocolVersion, '2025-11-25');
});

test('tools/list shows the writing tools only to tokens that may index', async () => {
  const names = async (token) => (await (await connect(token)).listTools()).tools.map((t) => t.name).sort();
  assert.deepEqual(await names(ADMIN), ['delete_source', 'index_text', 'list_corpora', 'list_sources', 'read', 'search']);
  assert.deepEqual(await names(READER), ['list_corpora', 'list_sources', 'read', 'search']);
  for (const tool of (await (await connect(ADMIN)).listTools()).tools) {
    for (const [field, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
      assert.ok(schema.description?.length > 10, `${tool.name}.${field} is described`);
    }
    assert.ok(tool.outputSchema, `${tool.name} has an output schema`);
  }
});

test('every tool answers structured content that matches its output schema', async () => {
  const client = await connect(ADMIN);
  await client.listTools(); // the client validates each tool's structured content against these
  const corpora = await client.callTool({ name: 'list_corpora', arguments: {} });
  assert.deepEqual(corpora.structuredContent.corpora.map((c) => c.corpus), ['finance', 'handbook']);
  const sources = await client.callTool({ name: 'list_sources', arguments: { corpus: 'handbook', limit: 1 } });
  assert.equal(sources.structuredContent.sources.length, 1);
  assert.ok(sources.structuredContent.nextCursor);
  const found = await client.callTool({ name: 'search',
    arguments: { corpus: 'handbook', query: 'parental leave', topK: 3, mode: 'lexical' } });
  assert.equal(found.isError, false);
  assert.equal(found.structuredContent.revision, revision);
  const top = found.structuredContent.results[0];
  for (const key of ['source', 'chunk', 'offsets', 'snippet', 'score', 'revision', 'uri']) assert.ok(key in top, key);
  assert.deepEqual(JSON.parse(found.content[0].text), found.structuredContent);
  const read = await client.callTool({ name: 'read',
    arguments: { corpus: 'handbook', source: top.source, chunk: top.chunk, revision: top.revision } });
  assert.equal(read.structuredContent.revision, revision);
  assert.ok(read.structuredContent.chunks[0].text.includes('arental leave'));
  const indexed = await client.callTool({ name: 'index_text',
    arguments: { corpus: 'handbook', source: 'public/notes.md', title: 'Notes', text: 'Sabbaticals last three months.',
      metadata: { team: 'people' } } });
  assert.equal(indexed.structuredContent.status, 'indexed');
  const again = await client.callTool({ name: 'search', arguments: { corpus: 'handbook', query: 'sabbaticals',
    filter: { team: 'people' }, revision: indexed.structuredContent.revision } });
  assert.equal(again.structuredContent.results[0].source, 'public/notes.md');
  const deleted = await client.callTool({ name: 'delete_source', arguments: { corpus: 'handbook', source: 'public/notes.md' } });
  assert.equal(deleted.structuredContent.status, 'deleted');
});

test('search reports progress through the progress token the client sends', async () => {
  const client = await connect(ADMIN);
  const seen = [];
  const result = await client.callTool({ name: 'search', arguments: { corpus: 'handbook', query: 'leave' } },
    undefined, { onprogress: (p) => seen.push(p) });
  assert.equal(result.isError, false);
  assert.deepEqual(seen.map((p) => p.message.split(' ')[0]),
    ['retrieval.resolving-sources', 'retrieval.searching', 'retrieval.completed']);
  assert.ok(seen.every((p, i) => i === 0 || p.progress > seen[i - 1].progress));
  assert.ok(seen.every((p) => p.total === 4));
});

test('a cancelled call ends on the client and the session goes on', async () => {
  const client = await connect(ADMIN);
  const controller = new AbortController();
  const call = client.callTool({ name: 'search', arguments: { corpus: 'handbook', query: 'leave' } }, undefined, {
    signal: controller.signal,
    // Cancel as soon as the server reports the first phase: the client sends notifications/cancelled.
    onprogress: () => controller.abort('the user stopped it'),
  });
  await assert.rejects(call, (e) => String(e).includes('the user stopped it') || e.name === 'AbortError');
  const after = await client.callTool({ name: 'list_corpora', arguments: {} });
  assert.equal(after.isError, false);
});

test('a token restricted to public/* sees nothing else through any tool or resource', async () => {
  const client = await connect(PUBLIC_ONLY);
  await client.listTools();
  const found = await client.callTool({ name: 'search',
    arguments: { corpus: 'handbook', query: 'parental leave salaries confidential', topK: 10 } });
  assert.ok(found.structuredContent.results.length > 0);
  for (const r of found.structuredContent.results) assert.match(r.source, /^public\//);
  const listed = await client.callTool({ name: 'list_sources', arguments: { corpus: 'handbook' } });
  assert.deepEqual(listed.structuredContent.sources.map((s) => s.source), ['public/leave.md']);
  const corpora = await client.callTool({ name: 'list_corpora', arguments: {} });
  assert.deepEqual(corpora.structuredContent.corpora.map((c) => c.corpus), ['handbook']);
  for (const source of ['private/salaries.md', 'private/absent.md']) {
    const read = await client.callTool({ name: 'read', arguments: { corpus: 'handbook', source } });
    assert.equal(refusal(read).code, 'FORBIDDEN');
    assert.doesNotMatch(read.content[0].text, /confidential/);
  }
  assert.equal(refusal(await client.callTool({ name: 'search', arguments: { corpus: 'finance', query: 'leave' } })).code,
    'FORBIDDEN');
  assert.equal(refusal(await client.callTool({ name: 'index_text',
    arguments: { corpus: 'handbook', source: 'private/x.md', text: 'x' } })).code, 'FORBIDDEN');
  await assert.rejects(client.readResource({ uri: 'quarry://handbook/private%2Fsalaries.md' }),
    (e) => e instanceof McpError && e.code === -32602 && e.data.code === 'FORBIDDEN' && !/confidential/.test(e.message));
  await assert.rejects(client.readResource({ uri: 'quarry://finance' }),
    (e) => e instanceof McpError && e.data.code === 'FORBIDDEN');
  const mine = await client.readResource({ uri: `quarry://handbook/public%2Fleave.md?revision=${revision}` });
  assert.equal(mine.contents[0].text, 'Parental leave is twenty weeks. Annual leave is twenty five days.');
});

test('resources/list names only the resources the token may read, each pinned at a revision', async () => {
  const client = await connect(PUBLIC_ONLY);
  const { resources, nextCursor } = await client.listResources();
  assert.equal(nextCursor, undefined);
  assert.deepEqual(resources.map((r) => [r.name, r.uri.replace(/\?revision=\d+$/, ''), r.mimeType]), [
    ['handbook', 'quarry://handbook', 'application/json'],
    ['public/leave.md', 'quarry://handbook/public%2Fleave.md', 'text/plain'],
  ]);
  const leave = resources[1];
  assert.equal(leave.title, 'Leave policy');
  assert.match(leave.uri, /\?revision=\d+$/);
  assert.doesNotMatch(JSON.stringify(resources), /salaries|finance|budget/);
  const read = await client.readResource({ uri: leave.uri });
  assert.equal(read.contents[0].text, 'Parental leave is twenty weeks. Annual leave is twenty five days.');
  await assert.rejects(client.listResources({ cursor: 'not-a-cursor' }),
    (e) => e instanceof McpError && e.code === -32602 && e.data.field === 'params.cursor');
});

test('resources are offered as templates with the revision in the URI', async () => {
  const client = await connect(ADMIN);
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate).sort(),
    ['quarry://{corpus}', 'quarry://{corpus}/{source}', 'quarry://{corpus}/{source}?revision={revision}']);
  const corpus = await client.readResource({ uri: 'quarry://handbook' });
  assert.equal(JSON.parse(corpus.contents[0].text).corpus, 'handbook');
});

test('bad arguments are typed tool errors naming the field', async () => {
  const client = await connect(ADMIN);
  await client.listTools();
  const cases = [
    [{ corpus: 'handbook', query: 'x', topK: 0 }, 'INVALID_REQUEST', 'topK'],
    [{ corpus: 'handbook', query: 'x', mode: 'psychic' }, 'INVALID_REQUEST', 'mode'],
    [{ corpus: 'handbook', query: 'x', unknown: 1 }, 'INVALID_REQUEST', 'unknown'],
    [{ corpus: 'handbook' }, 'INVALID_REQUEST', 'query'],
    [{ corpus: 'absent', query: 'x' }, 'CORPUS_NOT_FOUND', undefined],
  ];
  for (const [args, code, field] of cases) {
    const error = refusal(await client.callTool({ name: 'search', arguments: args }));
    assert.equal(error.code, code, JSON.stringify(args));
    assert.equal(error.field, field);
    assert.doesNotMatch(error.message, /Exception|jackson|at dev\./);
  }
  await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }),
    (e) => e instanceof McpError && e.code === -32602);
});

test('without a valid token the server answers 401 with a Bearer challenge', async () => {
  const res = await fetch(url + '/mcp', { method: 'POST', headers: { 'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25',
      capabilities: {}, clientInfo: { name: 'x', version: '1' } } }) });
  assert.equal(res.status, 401);
  assert.match(res.headers.get('www-authenticate'), /^Bearer/);
  await assert.rejects(connect('not-a-token'));
});

test('the MCP Inspector command line lists and calls the tools', async () => {
  const inspector = async (...args) => {
    const { stdout } = await promisify(execFile)(join(here, 'node_modules', '.bin', 'mcp-inspector'),
      ['--cli', url + '/mcp', '--transport', 'http', '--header', `Authorization: Bearer ${READER}`, ...args],
      { timeout: 60_000 });
    return JSON.parse(stdout);
  };
  const { tools } = await inspector('--method', 'tools/list');
  assert.deepEqual(tools.map((t) => t.name).sort(), ['list_corpora', 'list_sources', 'read', 'search']);
  const found = await inspector('--method', 'tools/call', '--tool-name', 'search',
    '--tool-arg', 'corpus=handbook', 'query=parental leave', 'topK=2');
  assert.equal(found.isError, false);
  assert.ok(found.structuredContent.results.length > 0);
  // A tool error: the inspector says so and exits with its code for it.
  await assert.rejects(inspector('--method', 'tools/call', '--tool-name', 'search',
    '--tool-arg', 'corpus=finance', 'query=leave'),
  (e) => e.code === 5 && /"tool_is_error"/.test(e.stdout + e.stderr));
});
