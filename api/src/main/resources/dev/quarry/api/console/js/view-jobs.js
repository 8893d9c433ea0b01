// Ingestion jobs: one job by its id (what `quarry ingest` and jobs/submit print), its state and
// counts, and its files with each one's outcome, a page at a time.
import * as api from './api.js';
import {bytes, facts, h, num, replace, time} from './dom.js';
import {pager} from './common.js';
import {errorLine} from './words.js';

const PAGE = 50;
const COUNTS = ['files', 'queued', 'extracting', 'indexed', 'unchanged', 'failed', 'cancelled'];

export async function jobsView(main, ctx) {
  const p = ctx.params;
  const id = h('input', {type: 'text', id: 'job-id', value: p.get('job') || '', required: true, class: 'grow',
    placeholder: 'job_4fj2…', autocomplete: 'off', spellcheck: 'false'});
  const form = h('form', {class: 'row', id: 'job-form', onsubmit: e => {
    e.preventDefault();
    ctx.go('jobs', {job: id.value.trim()});
  }}, h('label', {class: 'grow'}, 'Job id', id), h('button', {type: 'submit', class: 'primary'}, 'Show'));
  replace(main, h('h1', {}, 'Ingestion jobs'), form);
  if (!p.get('job')) {
    id.focus();
    return;
  }
  const body = {job: p.get('job'), limit: PAGE};
  if (p.get('cursor')) body.cursor = p.get('cursor');
  const page = await api.call('jobs/read', body);
  if (!ctx.current()) return;
  const job = page.job;
  const counts = job.counts || {};
  const here = {job: job.id};
  main.append(
    h('section', {class: 'card', id: 'job', 'data-state': job.state},
      h('h2', {class: 'mono'}, job.id),
      facts([
        ['State', h('span', {id: 'job-state'}, job.state)],
        ['Corpus', h('a', {href: '#/sources?' + new URLSearchParams({corpus: job.corpus})}, job.corpus)],
        ['Files', h('span', {id: 'job-counts'}, COUNTS.filter(k => k in counts).map(k => `${k} ${num(counts[k])}`).join(' · '))],
        ['Bytes', typeof job.bytes === 'number' ? bytes(job.bytes) : null],
        ['Created', time(job.createdAt)], ['Started', time(job.startedAt)], ['Closed', time(job.closedAt)],
        ['Ended', time(job.endedAt)], ['Removed after', time(job.expiresAt)],
        ['Error', job.error ? `${job.error.code}: ${job.error.message}` : null],
      ]),
      h('p', {}, h('button', {type: 'button', id: 'refresh-job', onclick: () => ctx.go('jobs', {...here, cursor: p.get('cursor')})}, 'Refresh'))),
    page.files.length ? filesTable(job, page.files) : h('p', {class: 'muted', id: 'no-files'}, 'No files on this page.'),
    pager('jobs', here, p.get('cursor'), page.nextCursor));
}

function filesTable(job, files) {
  const rows = files.map(f => h('tr', {'data-source': f.source, 'data-status': f.status, 'data-code': f.error ? f.error.code : null},
    h('td', {class: 'num'}, num(f.index)),
    h('td', {}, f.status === 'indexed' || f.status === 'unchanged'
      ? h('a', {class: 'mono', href: '#/source?' + new URLSearchParams({corpus: job.corpus, source: f.source})}, f.source)
      : h('span', {class: 'mono'}, f.source)),
    h('td', {class: 'status'}, f.status),
    h('td', {class: 'num wide-only'}, typeof f.bytes === 'number' ? bytes(f.bytes) : ''),
    h('td', {}, outcome(f))));
  return h('div', {class: 'table-wrap'}, h('table', {id: 'job-files'},
    h('thead', {}, h('tr', {}, h('th', {class: 'num'}, '#'), h('th', {}, 'Source'), h('th', {}, 'Status'),
      h('th', {class: 'num wide-only'}, 'Size'), h('th', {}, 'Outcome'))),
    h('tbody', {}, rows)));
}

/** A file's receipt in short, or its error as sentence, message and code. */
function outcome(f) {
  if (f.error) {
    return errorLine(f.error);
  }
  if (f.receipt) return `revision ${num(f.receipt.revision)}`;
  return '';
}
