// Tolerant reader: a loopback proxy in front of a real `quarry serve` adds fields the client has
// never heard of to every JSON answer (and, on request, another wire version or a broken body),
// and the client reads through them. Also: no server at all is a typed TRANSPORT failure, and a
// loopback server writing broken run streams (which a real server never does) meets the event rules.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { QuarryClient, QuarryError } from '../dist/index.js';
import { startServer } from './server.mjs';

const ADMIN = 'ts-tolerance-admin-token';
let server, proxy, proxyUrl;
/** What the proxy does to the next answers: 'fields' (add unknown fields), 'version', 'html'. */
let mode = 'fields';

/** Adds an unknown field to this object and, recursively, to every object inside it. */
function addFields(value) {
  if (Array.isArray(value)) return value.map(addFields);
  if (typeof value !== 'object' || value === null) return value;
  const out = {};
  for (const [k, v] of Object.entries(value)) out[k] = addFields(v);
  out.fieldFromTheFuture = { nested: [1, 'two', null], flag: true };
  return out;
}

before(async () => {
  server = await startServer({ admin: { token: ADMIN, grants: [{ corpus: '*', scopes: ['search', 'index', 'manage'] }] } });
  proxy = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const headers = { ...req.headers };
    delete headers.host;
    delete headers['content-length'];
    const upstream = await fetch(server.url + req.url, { method: req.method, headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined, duplex: 'half' });
    let body = await upstream.text();
    const out = Object.fromEntries([...upstream.headers].filter(([k]) => !['content-length', 'content-encoding', 'transfer-encoding'].includes(k)));
    if (mode === 'fields' && (upstream.headers.get('content-type') ?? '').startsWith('application/json')) {
      body = JSON.stringify(addFields(JSON.parse(body)));
    } else if (mode === 'version') {
      out['agenticdriver-version'] = '2.0';
    } else if (mode === 'html') {
      res.writeHead(502, { 'content-type': 'text/html', 'agenticdriver-version': '1.0' });
      res.end('<html><body>Bad gateway</body></html>');
      return;
    }
    res.writeHead(upstream.status, out);
    res.end(body);
  });
  await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${proxy.address().port}`;
});

after(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await server?.stop();
});

test('unknown fields in answers are tolerated and passed through', async () => {
  mode = 'fields';
  const quarry = new QuarryClient({ url: proxyUrl, token: ADMIN });
  const corpus = await quarry.createCorpus({ corpus: 'tolerant' });
  assert.equal(corpus.corpus, 'tolerant');
  assert.deepEqual(corpus.fieldFromTheFuture, { nested: [1, 'two', null], flag: true });
  const receipt = await quarry.ingest({ corpus: 'tolerant', source: 'notes/leave.md' },
    { data: '# Leave\n\nParental leave is twenty weeks.\n' });
  assert.equal(receipt.status, 'indexed');
  assert.equal(receipt.mediaType, 'text/markdown', 'the part is named leave.md, a hint the server takes');
  const found = await quarry.search({ corpus: 'tolerant', query: 'parental leave' });
  assert.equal(found.results[0].source, 'notes/leave.md');
  assert.ok('fieldFromTheFuture' in found.results[0].offsets);
  const error = await quarry.search({ corpus: 'tolerant', query: 'x', topK: 0 }).catch((e) => e);
  assert.ok(error instanceof QuarryError);
  assert.deepEqual([error.code, error.field], ['INVALID_REQUEST', 'topK'], 'an envelope with unknown fields is still read');
});

test('an answer that selects another wire version is refused', async () => {
  mode = 'version';
  try {
    const quarry = new QuarryClient({ url: proxyUrl, token: ADMIN });
    await assert.rejects(quarry.protocol(), (e) => e instanceof QuarryError && e.code === 'UNSUPPORTED_PROTOCOL_VERSION' && e.status === 200);
  } finally {
    mode = 'fields';
  }
});

test('an answer without the error envelope is INVALID_RESPONSE with its status', async () => {
  mode = 'html';
  try {
    const quarry = new QuarryClient({ url: proxyUrl, token: ADMIN });
    await assert.rejects(quarry.protocol(), (e) => e instanceof QuarryError && e.code === 'INVALID_RESPONSE' && e.status === 502 && e.retryable);
  } finally {
    mode = 'fields';
  }
});

test('no server is TRANSPORT, and a mutation sent into it is uncertain', async () => {
  const closed = createServer();
  await new Promise((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = closed.address().port;
  await new Promise((resolve) => closed.close(resolve));
  const quarry = new QuarryClient({ url: `http://127.0.0.1:${port}`, token: ADMIN });
  await assert.rejects(quarry.protocol(), (e) => e instanceof QuarryError && e.code === 'TRANSPORT' && e.status === 0 && !e.uncertain);
  await assert.rejects(quarry.indexSource({ corpus: 'x', source: 'y', text: 'z' }),
    (e) => e instanceof QuarryError && e.code === 'TRANSPORT' && e.uncertain && e.retryable);
});

test('a timeout is TIMEOUT; the caller\'s own abort rejects with its reason', async () => {
  const silent = createServer(() => { /* never answers */ });
  await new Promise((resolve) => silent.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${silent.address().port}`;
    await assert.rejects(new QuarryClient({ url, token: ADMIN, timeoutMs: 200 }).protocol(),
      (e) => e instanceof QuarryError && e.code === 'TIMEOUT');
    const reason = new Error('stop');
    await assert.rejects(new QuarryClient({ url, token: ADMIN }).protocol({ signal: AbortSignal.any([AbortSignal.timeout(100)]) }),
      (e) => e.name === 'TimeoutError');
    const controller = new AbortController();
    setTimeout(() => controller.abort(reason), 50);
    await assert.rejects(new QuarryClient({ url, token: ADMIN }).protocol({ signal: controller.signal }), (e) => e === reason);
  } finally {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  }
});

/** A loopback server answering POST /v1/runs with these SSE frames, then cutting or ending the stream. */
async function streaming(frames, { cut = false } = {}) {
  const fake = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream', 'agenticdriver-version': '1.0' });
    for (const f of frames) res.write(typeof f === 'string' ? f : `id: ${f.sequence}\ndata: ${JSON.stringify(f)}\n\n`);
    if (cut) res.socket.destroy(); else res.end();
  });
  await new Promise((resolve) => fake.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${fake.address().port}`, close: () => new Promise((resolve) => fake.close(resolve)) };
}

const at = '2026-12-05T12:00:00.000Z';
const started = { type: 'run.started', runId: 'r1', sequence: 1, timestamp: at, provider: 'retrieval' };
const completed = (sequence) => ({ type: 'run.completed', runId: 'r1', sequence, timestamp: at,
  result: { corpus: 'c', corpusId: 'i', revision: 0, passages: [] } });

async function streamed(frames, options) {
  const fake = await streaming(frames, options);
  try {
    const events = [];
    const quarry = new QuarryClient({ url: fake.url, token: ADMIN });
    for await (const e of quarry.streamRun({ provider: 'retrieval', input: 'q', retrieval: { corpus: 'c' } })) events.push(e.type);
    return events;
  } finally {
    await fake.close();
  }
}

const failsWith = (code, message) => (e) => e instanceof QuarryError && e.code === code && message.test(e.message);

test('a run stream is held to the event rules', async () => {
  assert.deepEqual(await streamed([': heartbeat\n\n', started, { type: 'run.future', optional: true, runId: 'r1', sequence: 2, timestamp: at },
    completed(3)]), ['run.started', 'run.completed'], 'heartbeats and an optional unknown event are skipped');
  await assert.rejects(streamed([started]), failsWith('INVALID_STREAM', /without its terminal event/));
  await assert.rejects(streamed([started, completed(3)]), failsWith('INVALID_STREAM', /event 3 arrived where 2 was due/));
  await assert.rejects(streamed([completed(1)]), failsWith('INVALID_STREAM', /not run.started/));
  await assert.rejects(streamed([started, { ...completed(2), runId: 'r2' }]), failsWith('INVALID_STREAM', /another run/));
  await assert.rejects(streamed([started, completed(2), { ...completed(3) }]), failsWith('INVALID_STREAM', /followed the terminal/));
  await assert.rejects(streamed([started, { type: 'run.future', runId: 'r1', sequence: 2, timestamp: at }]),
    failsWith('UNSUPPORTED_EVENT', /run\.future/));
  await assert.rejects(streamed([started, 'data: {not json\n\n']), failsWith('INVALID_STREAM', /not JSON/));
  await assert.rejects(streamed([started], { cut: true }), failsWith('TRANSPORT', /./));
});
