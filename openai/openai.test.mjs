// Drives a real `quarry serve` with the official OpenAI SDK (openai, pinned by package-lock.json),
// doing what a file-search application does: create a vector store, upload a PDF and a Markdown file
// and attach them with a batch, poll until they are indexed, search with and without attribute
// filters, list and delete; then the SDK's error classes on bad input and on a restricted token.
// docs/openai-compatibility.md says how each call maps onto Quarry.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI, { toFile } from 'openai';
import { startServer } from '../clients/typescript/test/server.mjs';

const ADMIN = 'openai-admin-token';
const READER = 'openai-reader-token';
const here = dirname(fileURLToPath(import.meta.url));
let server, url;

before(async () => {
  server = await startServer({
    admin: { token: ADMIN, grants: [{ corpus: '*', scopes: ['search', 'index', 'manage'] }] },
    reader: { token: READER, grants: [{ corpus: 'public', scopes: ['search'] }] },
  });
  url = server.url;
});

after(async () => {
  await server?.stop();
});

/** The SDK as an application builds it: only the base URL and the key differ from OpenAI's cloud. */
function client(apiKey) {
  return new OpenAI({ apiKey, baseURL: `${url}/openai/v1`, maxRetries: 0 });
}

async function fixture(name) {
  return toFile(readFileSync(join(here, 'fixtures', name)), name);
}

test('a file-search application: store, batch of a PDF and a Markdown file, search, list, delete', async () => {
  const openai = client(ADMIN);
  const store = await openai.vectorStores.create({ name: 'Handbook', metadata: { team: 'hr' } });
  assert.match(store.id, /^vs_/);
  assert.equal(store.object, 'vector_store');
  assert.equal(store.name, 'Handbook');
  assert.deepEqual(store.metadata, { team: 'hr' });

  const pdf = await openai.files.create({ file: await fixture('handbook.pdf'), purpose: 'assistants' });
  const md = await openai.files.create({ file: await fixture('remote-work.md'), purpose: 'assistants' });
  assert.match(pdf.id, /^file-/);
  assert.equal(pdf.filename, 'handbook.pdf');
  assert.equal(pdf.bytes, readFileSync(join(here, 'fixtures', 'handbook.pdf')).length);

  const batch = await openai.vectorStores.fileBatches.createAndPoll(store.id, {
    files: [
      { file_id: pdf.id, attributes: { kind: 'pdf', year: 2024 } },
      { file_id: md.id, attributes: { kind: 'markdown', year: 2025 } },
    ],
  }, { pollIntervalMs: 100 });
  assert.equal(batch.status, 'completed');
  assert.deepEqual(batch.file_counts, { in_progress: 0, completed: 2, failed: 0, cancelled: 0, total: 2 });

  const again = await openai.vectorStores.retrieve(store.id);
  assert.equal(again.file_counts.completed, 2);
  assert.equal(again.status, 'completed');

  // Search without filters: the PDF's leave page comes first, with its text, name and attributes.
  const page = await openai.vectorStores.search(store.id, { query: 'how long is parental leave?', max_num_results: 3 });
  const first = page.data[0];
  assert.equal(first.file_id, pdf.id);
  assert.equal(first.filename, 'handbook.pdf');
  assert.deepEqual(first.attributes, { kind: 'pdf', year: 2024 });
  assert.equal(first.content[0].type, 'text');
  assert.match(first.content[0].text, /Parental leave is 20 weeks/);
  assert.ok(first.score > 0);
  // Quarry's own fields ride along: the page's revision, the result's pages.
  assert.equal(page.body.quarry.revision >= 2, true);
  assert.equal(first.quarry.pages.from, 1);

  // With a filter on attributes: only the Markdown file, for the same words.
  const filtered = await openai.vectorStores.search(store.id, {
    query: ['remote work', 'office'],
    filters: { type: 'and', filters: [{ key: 'kind', type: 'eq', value: 'markdown' }, { key: 'year', type: 'gte', value: 2025 }] },
  });
  assert.ok(filtered.data.length > 0);
  for (const hit of filtered.data) {
    assert.equal(hit.file_id, md.id);
    assert.match(hit.content[0].text, /remote/i);
  }
  const excluded = await openai.vectorStores.search(store.id, {
    query: 'parental leave', filters: { key: 'kind', type: 'ne', value: 'pdf' } });
  assert.ok(excluded.data.every((hit) => hit.file_id !== pdf.id));

  // Lists, through the SDK's own paging.
  const files = [];
  for await (const f of openai.vectorStores.files.list(store.id, { limit: 1 })) files.push(f);
  assert.deepEqual(files.map((f) => f.id).sort(), [pdf.id, md.id].sort());
  assert.ok(files.every((f) => f.status === 'completed' && f.vector_store_id === store.id));
  const inBatch = [];
  for await (const f of openai.vectorStores.fileBatches.listFiles(batch.id, { vector_store_id: store.id })) inBatch.push(f.id);
  assert.equal(inBatch.length, 2);
  const stores = [];
  for await (const s of openai.vectorStores.list()) stores.push(s.id);
  assert.ok(stores.includes(store.id));
  const content = [];
  for await (const part of openai.vectorStores.files.content(md.id, { vector_store_id: store.id })) content.push(part.text);
  assert.match(content.join(''), /Employees may work remotely up to three days a week/);

  // Delete the PDF from the store: search no longer finds it; the uploaded file stays.
  const removed = await openai.vectorStores.files.delete(pdf.id, { vector_store_id: store.id });
  assert.equal(removed.deleted, true);
  const afterDelete = await openai.vectorStores.search(store.id, { query: 'parental leave' });
  assert.ok(afterDelete.data.every((hit) => hit.file_id !== pdf.id));
  const bytes = Buffer.from(await (await openai.files.content(pdf.id)).arrayBuffer());
  assert.deepEqual(bytes, readFileSync(join(here, 'fixtures', 'handbook.pdf')));
  assert.equal((await openai.files.delete(pdf.id)).deleted, true);
  await assert.rejects(openai.files.retrieve(pdf.id), OpenAI.NotFoundError);

  const gone = await openai.vectorStores.delete(store.id);
  assert.equal(gone.deleted, true);
  await assert.rejects(openai.vectorStores.retrieve(store.id), OpenAI.NotFoundError);
});

test('bad input raises the SDK error classes, with the parameter named', async () => {
  const openai = client(ADMIN);
  await assert.rejects(client('not-a-token').vectorStores.list().then((p) => p.data), OpenAI.AuthenticationError);
  await assert.rejects(openai.vectorStores.create({ name: 'x', colour: 'red' }), (e) => {
    assert.ok(e instanceof OpenAI.BadRequestError);
    assert.equal(e.param, 'colour');
    assert.equal(e.code, 'unknown_parameter');
    return true;
  });
  const store = await openai.vectorStores.create({ name: 'errors' });
  await assert.rejects(openai.vectorStores.search(store.id, { query: 'q', rewrite_query: true }), (e) =>
    e instanceof OpenAI.BadRequestError && e.param === 'rewrite_query');
  await assert.rejects(openai.vectorStores.search(store.id, { query: 'q', filters: { key: 'year', type: 'gt', value: 'soon' } }),
    (e) => e instanceof OpenAI.BadRequestError && e.param === 'filters.value');
  await assert.rejects(openai.vectorStores.search(store.id, { query: 'q', max_num_results: 51 }),
    (e) => e instanceof OpenAI.BadRequestError && e.param === 'max_num_results');
  await assert.rejects(openai.vectorStores.files.create(store.id, { file_id: 'file-doesnotexist' }),
    (e) => e instanceof OpenAI.NotFoundError && e.param === 'file_id');
  await assert.rejects(openai.vectorStores.retrieve('vs_doesnotexist'), OpenAI.NotFoundError);
  await openai.vectorStores.delete(store.id);
});

test('a restricted token sees only its stores; refusals name nothing outside its grants', async () => {
  const admin = client(ADMIN);
  const reader = client(READER);
  const secret = await admin.vectorStores.create({ name: 'secret' });
  const visible = [];
  for await (const s of reader.vectorStores.list()) visible.push(s.id);
  assert.ok(!visible.includes(secret.id));
  let known, unknown;
  await assert.rejects(reader.vectorStores.search(secret.id, { query: 'anything' }), (e) => {
    known = e;
    return e instanceof OpenAI.PermissionDeniedError;
  });
  await assert.rejects(reader.vectorStores.retrieve('vs_neverexisted'), (e) => {
    unknown = e;
    return e instanceof OpenAI.PermissionDeniedError;
  });
  // The same answer whether or not the store exists, and it names neither.
  assert.equal(known.message.replace(secret.id, ''), known.message);
  assert.equal(known.error.message, unknown.error.message);
  // A read-only token stores nothing on the server.
  await assert.rejects(reader.files.create({ file: await fixture('remote-work.md'), purpose: 'assistants' }),
    OpenAI.PermissionDeniedError);
  await admin.vectorStores.delete(secret.id);
});
