// The client against a real `quarry serve`: corpora, text and a real PDF, filtered and pinned
// searches, sources, jobs, runs, and every kind of failure as a typed QuarryError.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { QuarryClient, QuarryError } from '../dist/index.js';
import { REPO, startServer } from './server.mjs';

const ADMIN = 'ts-client-admin-token';
const READER = 'ts-client-public-token';
let server, quarry;

before(async () => {
  server = await startServer({
    admin: { token: ADMIN, grants: [{ corpus: '*', scopes: ['search', 'index', 'manage'] }] },
    reader: { token: READER, grants: [{ corpus: 'public', scopes: ['search'] }] },
  });
  quarry = new QuarryClient({ url: server.url, token: ADMIN });
});

after(() => server?.stop());

/** Asserts that `promise` rejects with a QuarryError of these properties, and answers it. */
async function refused(promise, expected) {
  const error = await promise.then(() => assert.fail('the call succeeded'), (e) => e);
  assert.ok(error instanceof QuarryError, String(error));
  for (const [key, value] of Object.entries(expected)) assert.deepEqual(error[key], value, `${key} of ${error.message}`);
  return error;
}

test('the served OpenAPI document is the one the types were generated from', async () => {
  const served = await quarry.openApiDocument();
  assert.equal(served, readFileSync(join(REPO, 'api/src/main/resources/dev/quarry/api/openapi.yaml'), 'utf8'));
  const protocol = await quarry.protocol();
  assert.equal(protocol.version, '1.0');
  assert.ok(protocol.features.includes('document-ingestion'));
  assert.deepEqual(await quarry.whoami(), { subject: 'admin', grants: [{ corpus: '*', sources: ['*'], scopes: ['search', 'index', 'manage'] }] });
});

test('corpora: create, read, list and delete', async () => {
  const created = await quarry.createCorpus({ corpus: 'scratch', settings: { chunking: { maxWords: 100 } } });
  assert.equal(created.corpus, 'scratch');
  assert.equal(created.revision, 0);
  assert.equal(created.settings.chunking.maxWords, 100);
  assert.equal(created.settings.language, 'english', 'defaults are filled in');
  const read = await quarry.readCorpus({ corpus: 'scratch' });
  assert.equal(read.corpusId, created.corpusId);
  assert.equal(read.sources, 0);
  const listed = [];
  for await (const c of quarry.corpora()) listed.push(c.corpus);
  assert.ok(listed.includes('scratch'), listed.join());
  assert.ok((await quarry.listCorpora({ limit: 1 })).corpora.length === 1);
  assert.deepEqual(await quarry.deleteCorpus({ corpus: 'scratch' }), { corpus: 'scratch', status: 'deleted' });
  await refused(quarry.readCorpus({ corpus: 'scratch' }), { code: 'CORPUS_NOT_FOUND', status: 404 });
  await refused(quarry.createCorpus({ corpus: 'handbook-twice' }).then(() => quarry.createCorpus({ corpus: 'handbook-twice' })),
    { code: 'CORPUS_EXISTS', status: 409 });
});

test('text and a real PDF are indexed, then found with a filter and at a pinned revision', async () => {
  // Small chunks, so that the hit on the three-page PDF starts on the page that holds it.
  await quarry.createCorpus({ corpus: 'handbook', settings: { chunking: { maxWords: 30, overlapWords: 0 } } });
  const leave = await quarry.indexSource({ corpus: 'handbook', source: 'policies/leave.md', title: 'Leave policy',
    text: 'Parental leave is twenty weeks. Annual leave is twenty five days.', mediaType: 'text/markdown',
    metadata: { department: 'hr', year: 2024 } });
  assert.equal(leave.status, 'indexed');
  assert.equal(leave.revision, 1);
  const pdf = await quarry.ingest({ corpus: 'handbook', source: 'handbook.pdf', title: 'Employee handbook',
    metadata: { department: 'all', year: 2026 } }, { data: readFileSync(join(REPO, 'examples/handbook.pdf')) });
  assert.equal(pdf.status, 'indexed');
  assert.equal(pdf.revision, 2);
  assert.equal(pdf.mediaType, 'application/pdf');
  assert.equal(pdf.pages, 3);
  assert.deepEqual(pdf.warnings, []);

  const travel = await quarry.search({ corpus: 'handbook', query: 'travel desk', filter: { department: 'all' } });
  assert.equal(travel.revision, 2);
  assert.equal(travel.results[0].source, 'handbook.pdf');
  assert.equal(travel.results[0].pages.from, 2, 'the travel section is on page 2');
  assert.match(travel.results[0].text, /travel desk at least 14 days ahead/);
  const [start, end] = travel.results[0].highlights[0];
  assert.match(travel.results[0].text.slice(start, end), /^travel$/i);

  const recent = await quarry.search({ corpus: 'handbook', query: 'parental leave', filter: { year: { gte: 2025 } } });
  assert.deepEqual(new Set(recent.results.map((h) => h.source)), new Set(['handbook.pdf']), 'the filter leaves the 2024 source out');
  const either = await quarry.search({ corpus: 'handbook', query: 'parental leave',
    filter: { or: [{ department: 'hr' }, { year: { gte: 2025 } }] } });
  assert.deepEqual(new Set(either.results.map((h) => h.source)), new Set(['handbook.pdf', 'policies/leave.md']));

  // A change after revision 2, then a search pinned at 2 sees the corpus as it was.
  const changed = await quarry.indexSource({ corpus: 'handbook', source: 'policies/leave.md', title: 'Leave policy',
    text: 'Parental leave is thirty weeks from 2027.', metadata: { department: 'hr', year: 2027 } });
  assert.equal(changed.revision, 3);
  const latest = await quarry.search({ corpus: 'handbook', query: 'parental leave weeks', sources: ['policies/*'] });
  assert.equal(latest.revision, 3);
  assert.match(latest.results[0].text, /thirty weeks/);
  const pinned = await quarry.search({ corpus: 'handbook', query: 'parental leave weeks', sources: ['policies/*'], revision: 2 });
  assert.equal(pinned.revision, 2);
  assert.equal(pinned.results[0].sourceRevision, 1);
  assert.match(pinned.results[0].text, /twenty weeks/);
  const again = await quarry.search({ corpus: 'handbook', query: 'parental leave weeks', sources: ['policies/*'], revision: 2 });
  assert.deepEqual({ ...again, tookMs: 0 }, { ...pinned, tookMs: 0 }, 'a pinned search answers the same again');
});

test('sources: list, read, batch and delete', async () => {
  await quarry.createCorpus({ corpus: 'notes' });
  const batch = await quarry.batch({ corpus: 'notes', operations: [
    { index: { source: 'a/one.txt', text: 'The first note.' } },
    { index: { source: 'a/two.txt', text: 'The second note.' } },
    { index: { source: 'b/three.txt', passages: [{ text: 'The third note.' }] } },
  ] });
  assert.equal(batch.revision, 1);
  assert.deepEqual(batch.results.map((r) => r.status), ['indexed', 'indexed', 'indexed']);
  const names = [];
  for await (const s of quarry.sources('notes', 'a/')) names.push(s.source);
  assert.deepEqual(names, ['a/one.txt', 'a/two.txt']);
  const page = await quarry.listSources({ corpus: 'notes', limit: 2 });
  assert.equal(page.sources.length, 2);
  assert.equal(typeof page.nextCursor, 'string');
  const read = await quarry.readSource({ corpus: 'notes', source: 'a/two.txt' });
  assert.equal(read.sourceRevision, 1);
  assert.equal(read.characters, 'The second note.'.length);
  const chunks = await quarry.readChunks({ corpus: 'notes', source: 'b/three.txt' });
  assert.equal(chunks.chunks[0].text, 'The third note.');
  const deleted = await quarry.deleteSource({ corpus: 'notes', source: 'a/two.txt' });
  assert.deepEqual([deleted.status, deleted.revision], ['deleted', 2]);
  assert.equal((await quarry.deleteSource({ corpus: 'notes', source: 'a/two.txt' })).status, 'absent');
  await refused(quarry.readSource({ corpus: 'notes', source: 'a/two.txt' }), { code: 'SOURCE_NOT_FOUND', status: 404 });
  const history = await quarry.history({ corpus: 'notes' });
  assert.deepEqual(history.entries.map((e) => [e.revision, e.operation, e.source]),
    [[1, 'index', 'a/one.txt'], [1, 'index', 'a/two.txt'], [1, 'index', 'b/three.txt'], [2, 'delete', 'a/two.txt']]);
});

test('the same Idempotency-Key returns the original receipt', async () => {
  await quarry.createCorpus({ corpus: 'once' });
  const request = { corpus: 'once', source: 'x.txt', text: 'Only once.' };
  const first = await quarry.indexSource(request, { idempotencyKey: 'key-1' });
  await quarry.indexSource({ ...request, text: 'A later version.' });
  assert.deepEqual(await quarry.indexSource(request, { idempotencyKey: 'key-1' }), first);
  await refused(quarry.indexSource({ ...request, text: 'Another body.' }, { idempotencyKey: 'key-1' }),
    { code: 'IDEMPOTENCY_KEY_REUSED', status: 409 });
});

test('an ingestion job: create, upload, wait, read', async () => {
  await quarry.createCorpus({ corpus: 'jobs' });
  const { job } = await quarry.createJob({ corpus: 'jobs' });
  assert.equal(job.state, 'open');
  const laptops = readFileSync(join(REPO, 'examples/handbook-files/it/laptops.md'));
  const uploaded = await quarry.uploadJobFiles({ job: job.id, close: true, files: [
    { source: 'it/laptops.md', data: laptops, metadata: { team: 'it' } },
    { source: 'notes/plain.txt', data: 'Printers are on the second floor.', filename: 'plain.txt' },
  ] });
  assert.equal(uploaded.job.counts.files, 2);
  const ended = await quarry.waitForJob(job.id, { intervalMs: 100, timeoutMs: 60_000 });
  assert.equal(ended.state, 'completed');
  assert.equal(ended.counts.indexed, 2);
  const page = await quarry.readJob({ job: job.id });
  assert.deepEqual(page.files.map((f) => [f.source, f.status]), [['it/laptops.md', 'indexed'], ['notes/plain.txt', 'indexed']]);
  assert.equal(page.files[0].receipt.mediaType, 'text/markdown');
  const found = await quarry.search({ corpus: 'jobs', query: 'printers floor' });
  assert.equal(found.results[0].source, 'notes/plain.txt');

  const submitted = await quarry.submitJob({ corpus: 'jobs', files: [{ source: 'more.txt', data: 'More text.' }] });
  assert.ok(['open', 'running', 'completed'].includes(submitted.job.state) && submitted.job.closedAt !== undefined);
  assert.equal((await quarry.waitForJob(submitted.job.id)).state, 'completed');
  assert.ok((await quarry.listJobs({ corpus: 'jobs' })).jobs.some((j) => j.id === submitted.job.id));
});

test('a run, blocking and streamed', async () => {
  await quarry.createCorpus({ corpus: 'runs' });
  await quarry.indexSource({ corpus: 'runs', source: 'leave.md', text: 'Parental leave is twenty weeks.' });
  const answer = await quarry.run({ provider: 'retrieval', input: 'parental leave', retrieval: { corpus: 'runs', topK: 1 } });
  assert.equal(answer.result.passages[0].source, 'leave.md');
  const lost = await refused(quarry.run({ provider: 'retrieval', input: 'x', retrieval: { corpus: 'no-such-corpus' } }),
    { code: 'CORPUS_NOT_FOUND' });
  assert.match(lost.runId, /./, 'a run that started and failed names its run');
  const events = [];
  for await (const event of quarry.streamRun({ provider: 'retrieval', input: 'parental leave', retrieval: { corpus: 'runs' } })) {
    events.push(event);
  }
  assert.deepEqual(events.map((e) => e.type), ['run.started', 'run.progress', 'run.progress', 'run.progress', 'run.completed']);
  assert.equal(events.at(-1).result.passages[0].source, 'leave.md');
  // A corpus that does not exist fails the run after it started; a bad request is refused before.
  const failed = [];
  for await (const event of quarry.streamRun({ provider: 'retrieval', input: 'x', retrieval: { corpus: 'no-such-corpus' } })) {
    failed.push(event);
  }
  assert.deepEqual([failed[0].type, failed.at(-1).type, failed.at(-1).error.code], ['run.started', 'run.failed', 'CORPUS_NOT_FOUND']);
  await refused((async () => {
    for await (const _ of quarry.streamRun({ provider: 'retrieval', input: 'x', retrieval: { corpus: 'runs', topK: 1000 } })) { /* none */ }
  })(), { code: 'INVALID_REQUEST', status: 400, field: 'retrieval.topK' });
});

test('a bad request is INVALID_REQUEST with its field path and request id', async () => {
  const error = await refused(quarry.search({ corpus: 'handbook', query: 'leave', topK: 100_000 }),
    { code: 'INVALID_REQUEST', status: 400, field: 'topK', retryable: false, uncertain: false });
  assert.match(error.requestId, /^[A-Za-z0-9._-]{1,128}$/);
  await refused(quarry.batch({ corpus: 'handbook', operations: [{ index: { source: 'ok.txt', text: 'x' } }, { index: { source: 'bad.txt' } }] }),
    { code: 'INVALID_REQUEST', status: 400, field: 'operations[1].text' });
});

test('a missing corpus is CORPUS_NOT_FOUND; a corpus outside the grants is FORBIDDEN', async () => {
  await refused(quarry.search({ corpus: 'no-such-corpus', query: 'x' }), { code: 'CORPUS_NOT_FOUND', status: 404, field: undefined });
  const reader = new QuarryClient({ url: server.url, token: READER });
  await refused(reader.search({ corpus: 'handbook', query: 'x' }), { code: 'FORBIDDEN', status: 403 });
  await refused(reader.search({ corpus: 'no-such-corpus', query: 'x' }), { code: 'FORBIDDEN', status: 403 });
});

test('a bad token is UNAUTHENTICATED', async () => {
  const stranger = new QuarryClient({ url: server.url, token: 'not-a-token' });
  await refused(stranger.protocol(), { code: 'UNAUTHENTICATED', status: 401 });
  await refused(stranger.search({ corpus: 'handbook', query: 'x' }), { code: 'UNAUTHENTICATED', status: 401 });
});

test('what the client sends is strict: null is refused before anything is sent', async () => {
  let sent = 0;
  const counting = new QuarryClient({ url: server.url, token: ADMIN, fetch: (...args) => { sent++; return fetch(...args); } });
  await assert.rejects(counting.search({ corpus: 'handbook', query: 'x', filter: { department: null } }),
    { name: 'TypeError', message: /filter\.department is null/ });
  await assert.rejects(counting.batch({ corpus: 'handbook', operations: [undefined] }), { name: 'TypeError', message: /operations\[0\]/ });
  assert.equal(sent, 0);
  // An undefined field is left out, not sent as null.
  const latest = await counting.search({ corpus: 'handbook', query: 'leave', topK: undefined, revision: undefined });
  assert.equal(latest.corpus, 'handbook');
  assert.equal(sent, 1);
  // A field the document does not name reaches the server, which refuses it by name.
  await refused(counting.search({ corpus: 'handbook', query: 'x', topk: 3 }), { code: 'INVALID_REQUEST', field: 'topk' });
});

test('the example of docs/client.md type-checks with tsc --strict and runs as written', async () => {
  const doc = readFileSync(join(REPO, 'docs/client.md'), 'utf8');
  const example = /^## TypeScript$[\s\S]*?^```ts\n([\s\S]*?)^```$/m.exec(doc)?.[1];
  assert.ok(example, 'docs/client.md has a TypeScript example');
  const dir = mkdtempSync(join(tmpdir(), 'quarry-ts-example-'));
  try {
    // An application that installed the package: node_modules/@quarry/client is this folder.
    mkdirSync(join(dir, 'node_modules', '@quarry'), { recursive: true });
    symlinkSync(join(REPO, 'clients/typescript'), join(dir, 'node_modules', '@quarry', 'client'), 'dir');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    writeFileSync(join(dir, 'example.ts'), example);
    writeFileSync(join(dir, 'example.mjs'), example);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true,
      target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022'], types: ['node'],
      typeRoots: [join(REPO, 'clients/typescript/node_modules/@types')] }, include: ['example.ts'] }));
    const run = promisify(execFile);
    await run(join(REPO, 'clients/typescript/node_modules/.bin/tsc'), ['-p', dir]).catch((e) => assert.fail(`tsc: ${e.stdout}${e.stderr}`));
    const { stdout } = await run(process.execPath, [join(dir, 'example.mjs')],
      { cwd: REPO, env: { ...process.env, QUARRY_URL: server.url, QUARRY_TOKEN: ADMIN } });
    assert.match(stdout, /^created ts-example \(/m);
    assert.match(stdout, /^handbook\.pdf: 3 pages read by pdfbox, revision 2$/m);
    assert.match(stdout, /^[0-9.]+ policies\/leave\.md#0: Parental leave is twenty weeks\./m);
    assert.match(stdout, /^at revision 2: policies\/leave\.md$/m);
    assert.match(stdout, /^refused: 400 INVALID_REQUEST at topK \(request [A-Za-z0-9._-]+\)$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
