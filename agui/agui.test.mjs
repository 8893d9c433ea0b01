// Drives a real `quarry serve` with the AG-UI reference client (@ag-ui/client, @ag-ui/core 1.0):
// runs that finish, fail and are cancelled, over SSE and protobuf, with the client's own schema
// checks and event-order verification, and not one warning or error printed by the client.
import { test, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { HttpAgent } from '@ag-ui/client';
import { AgentCapabilitiesSchema, EventSchemas } from '@ag-ui/core/schemas';
import { z } from 'zod/v4';
import { startServer } from '../clients/typescript/test/server.mjs';

const ADMIN = 'agui-admin-token';
const PUBLIC_ONLY = 'agui-public-token';
let server, url;

before(async () => {
  server = await startServer({
    admin: { token: ADMIN, grants: [{ corpus: '*', scopes: ['search', 'index', 'manage'] }] },
    reader: { token: PUBLIC_ONLY, grants: [{ corpus: 'public', scopes: ['search'] }] },
  });
  url = server.url;
  await post('/v1/retrieval/corpora/create', { corpus: 'handbook' });
  await post('/v1/retrieval/sources/index', { corpus: 'handbook', source: 'policies/leave.md', title: 'Leave policy',
    text: 'Parental leave is twenty weeks. Annual leave is twenty five days.' });
  await post('/v1/retrieval/sources/index', { corpus: 'handbook', source: 'policies/travel.md',
    text: 'Travel is booked through the travel desk two weeks ahead.' });
});

after(async () => {
  await server?.stop();
});

async function post(path, body) {
  const res = await fetch(url + path, { method: 'POST', body: JSON.stringify(body),
    headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' } });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return JSON.parse(text);
}

// Every warning or error the client prints fails the test that caused it.
let printed;
const originals = { warn: console.warn, error: console.error };
beforeEach(() => {
  printed = [];
  console.warn = (...args) => printed.push(['warn', ...args]);
  console.error = (...args) => printed.push(['error', ...args]);
});
afterEach(() => {
  console.warn = originals.warn;
  console.error = originals.error;
  assert.deepEqual(printed, [], 'the AG-UI client printed warnings or errors');
});

/** HttpAgent over protobuf: the same agent asking for the binary binding. */
class ProtoAgent extends HttpAgent {
  requestInit(input) {
    const init = super.requestInit(input);
    return { ...init, headers: { ...init.headers, Accept: 'application/vnd.ag-ui.event+proto' } };
  }
}

const bindings = { sse: HttpAgent, protobuf: ProtoAgent };

function agent(Binding, token, question) {
  return new Binding({
    url: url + '/v1/agui/retrieval',
    headers: { Authorization: `Bearer ${token}` },
    initialMessages: [{ id: 'u1', role: 'user', content: question }],
  });
}

/** Runs the agent, collecting every event (each checked against @ag-ui/core's schema). */
/** The events of a retrieval run that finishes, in order. */
const FINISHED_RUN = ['RUN_STARTED',
  'STEP_STARTED', 'STEP_FINISHED', 'STEP_STARTED', 'TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END',
  'STEP_FINISHED', 'TOOL_CALL_RESULT', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END',
  'RUN_FINISHED'];

async function run(a, forwardedProps, extra = {}) {
  const events = [];
  let failure;
  const result = await a.runAgent({ runId: `run-${events.length}-${Date.now()}`, forwardedProps }, {
    onEvent: ({ event }) => {
      EventSchemas.parse(event);
      events.push(event);
      return extra.onEvent?.(event, a);
    },
    onRunFailed: ({ error }) => {
      failure = error;
      return { stopPropagation: true }; // the test inspects it; the client need not print it
    },
  });
  return { events, result, failure, messages: a.messages };
}

for (const [name, Binding] of Object.entries(bindings)) {
  test(`${name}: a run that finishes`, async () => {
    const a = agent(Binding, ADMIN, 'how long is parental leave?');
    const { events, result, failure, messages } = await run(a, { retrieval: { corpus: 'handbook', topK: 2 } });
    assert.equal(failure, undefined);
    assert.deepEqual(events.map((e) => e.type), FINISHED_RUN);
    assert.equal(events[0].threadId, a.threadId);
    assert.deepEqual(events.filter((e) => e.type === 'STEP_STARTED').map((e) => e.stepName),
      ['retrieval.resolving-sources', 'retrieval.searching']);
    const call = events.find((e) => e.type === 'TOOL_CALL_START');
    assert.equal(call.toolCallName, 'quarry_search');
    assert.deepEqual(JSON.parse(events.find((e) => e.type === 'TOOL_CALL_ARGS').delta),
      { corpus: 'handbook', query: 'how long is parental leave?', topK: 2 });
    assert.equal(result.result.corpus, 'handbook');
    assert.equal(result.result.passages[0].source, 'policies/leave.md');
    assert.equal(result.result.passages[0].title, 'Leave policy');
    // The conversation now holds the tool call, its result and an answer citing the source.
    const tool = messages.find((m) => m.role === 'tool');
    assert.equal(tool.toolCallId, call.toolCallId);
    assert.equal(JSON.parse(tool.content).passages[0].source, 'policies/leave.md');
    const answer = messages.filter((m) => m.role === 'assistant').at(-1);
    assert.match(answer.content, /policies\/leave\.md/);
    assert.ok(messages.some((m) => m.role === 'assistant' && m.toolCalls?.[0]?.function.name === 'quarry_search'));
  });

  test(`${name}: a run that errors after it started`, async () => {
    const { events, failure } = await run(agent(Binding, ADMIN, 'anything'), { retrieval: { corpus: 'no-such-corpus' } });
    assert.equal(failure, undefined);
    assert.equal(events[0].type, 'RUN_STARTED');
    const last = events.at(-1);
    assert.equal(last.type, 'RUN_ERROR');
    assert.equal(last.code, 'CORPUS_NOT_FOUND');
    assert.equal(events.filter((e) => e.type === 'RUN_ERROR' || e.type === 'RUN_FINISHED').length, 1);
  });

  test(`${name}: a corpus the token may not see is refused before any event`, async () => {
    const { events, failure } = await run(agent(Binding, PUBLIC_ONLY, 'anything'), { retrieval: { corpus: 'handbook' } });
    assert.deepEqual(events, []);
    assert.equal(failure.status, 403);
    assert.match(failure.message, /FORBIDDEN/);
  });

  test(`${name}: a run cancelled by its client`, async () => {
    const { events, failure } = await run(agent(Binding, ADMIN, 'parental leave'), { retrieval: { corpus: 'handbook' } },
      { onEvent: (event, a) => { if (event.type === 'RUN_STARTED') a.abortRun(); } });
    // The client ends the run as an abort (which it does not print), never as a server failure.
    assert.ok(failure === undefined || failure.name === 'AbortError', String(failure));
    assert.equal(events[0].type, 'RUN_STARTED');
    // The client marks its own abort with a RUN_ERROR of code 'abort'; the server reports none.
    const fromServer = events.filter((e) => !(e.type === 'RUN_ERROR' && e.code === 'abort'));
    assert.ok(!fromServer.some((e) => e.type === 'RUN_ERROR'), 'the server reported the cancel as an error');
    // The server answers this run in a few milliseconds: the events it wrote before the cancel
    // reached it can arrive in the same read as RUN_STARTED, and the client still delivers them.
    // So what arrives is the finished run's events cut short (or, at the latest, all of them).
    const types = fromServer.map((e) => e.type);
    assert.deepEqual(types, FINISHED_RUN.slice(0, types.length), 'the run was cut short, not torn');
  });
}

test('invalid input is refused with the field it concerns', async () => {
  const res = await fetch(url + '/v1/agui/retrieval', { method: 'POST',
    headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ threadId: 't', runId: 'r', messages: [], tools: [], context: [], state: {},
      forwardedProps: { retrieval: { corpus: 'handbook', topK: 1000 } } }) });
  assert.equal(res.status, 400);
  const body = await res.json();
  assert.equal(body.error.code, 'INVALID_REQUEST');
  assert.equal(body.error.field, 'forwardedProps.retrieval.topK');
});

test('the capabilities are AG-UI AgentCapabilities, declaring only known fields', async () => {
  const res = await fetch(url + '/v1/agui/capabilities', { headers: { Authorization: `Bearer ${ADMIN}` } });
  assert.equal(res.status, 200);
  const declared = await res.json();
  AgentCapabilitiesSchema.parse(declared);
  const unknown = [];
  (function walk(value, schema, path) {
    if (!schema?.properties || typeof value !== 'object' || Array.isArray(value)) return;
    for (const [key, v] of Object.entries(value)) {
      if (!(key in schema.properties)) unknown.push(path + key);
      else walk(v, schema.properties[key], `${path}${key}.`);
    }
  })(declared, z.toJSONSchema(AgentCapabilitiesSchema, { unrepresentable: 'any' }), '');
  assert.deepEqual(unknown, []);
  assert.equal(declared.tools.items[0].name, 'quarry_search');
  assert.equal(declared.transport.streaming, true);
  assert.equal(declared.transport.httpBinary, true);
  assert.equal(declared.reasoning.supported, false);
  assert.equal(declared.tools.clientProvided, false);
});
