// Ingestion jobs: the jobs the token may read, newest first, narrowed by corpus and state, a page
// at a time; and one job (from the list, or by the id `quarry ingest` and jobs/submit print) with
// its state and counts (with, for a corpus that embeds its chunks, the passages embedded, their rate
// and the time left), and its files with each one's outcome, a page at a time.
import * as api from './api.js';
import {bytes, facts, h, num, replace, shownId, time} from './dom.js';
import {address, corpusPicker, pager} from './common.js';
import {errorLine} from './words.js';

const PAGE = 50;
const LIST_PAGE = 25;
const COUNTS = ['files', 'queued', 'extracting', 'indexed', 'unchanged', 'failed', 'cancelled'];
const STATES = ['open', 'running', 'completed', 'cancelled', 'failed'];

export async function jobsView(main, ctx) {
  const p = ctx.params;
  const id = h('input', {type: 'text', id: 'job-id', value: p.get('job') || '', required: true, class: 'grow',
    placeholder: 'job_4fj2…', autocomplete: 'off', spellcheck: 'false'});
  const form = h('form', {class: 'row', id: 'job-form', onsubmit: e => {
    e.preventDefault();
    ctx.go('jobs', {job: id.value.trim()});
  }}, h('label', {class: 'grow'}, 'Job id', id), h('button', {type: 'submit', class: 'primary'}, 'Show'));
  if (p.get('job')) {
    replace(main, h('h1', {}, 'Ingestion jobs'), form,
      h('p', {}, h('a', {id: 'all-jobs', href: address('jobs')}, 'All jobs')));
    await jobDetail(main, ctx);
  } else {
    replace(main, h('h1', {}, 'Ingestion jobs'), form);
    await jobList(main, ctx);
  }
}

/** The jobs the token may read, newest first, narrowed by the address's corpus and state. */
async function jobList(main, ctx) {
  const p = ctx.params;
  const g = ctx.grants;
  // Jobs are read by their submitter (who needed index) or by whoever may manage their corpus.
  const picker = await corpusPicker(ctx, p.get('corpus'), c => g.can(c, 'index') || g.can(c, 'manage'),
    corpus => ctx.go('jobs', {corpus, state: p.get('state')}), 'All corpora');
  if (!ctx.current()) return;
  const corpus = picker.value;
  const state = h('select', {id: 'job-state-filter', name: 'state',
    onchange: () => ctx.go('jobs', {corpus, state: state.value})},
  h('option', {value: ''}, 'Any state'), STATES.map(s => h('option', {value: s}, s)));
  state.value = STATES.includes(p.get('state')) ? p.get('state') : '';
  main.append(h('div', {class: 'row', id: 'jobs-filters'}, picker.node, h('label', {}, 'State', state)));
  const body = {limit: LIST_PAGE};
  if (corpus) body.corpus = corpus;
  if (p.get('state')) body.state = p.get('state');
  if (p.get('cursor')) body.cursor = p.get('cursor');
  const page = await api.call('jobs/list', body);
  if (!ctx.current()) return;
  const here = {corpus, state: p.get('state')};
  const rows = page.jobs.map(j => h('tr', {'data-job': j.id, 'data-state': j.state, 'data-corpus': j.corpus},
    h('td', {}, h('a', {class: 'mono open-job', href: address('jobs', {job: j.id})}, j.id)),
    h('td', {class: 'state'}, j.state),
    h('td', {}, j.corpus),
    h('td', {class: 'counts'}, countsSummary(j.counts || {}),
      j.progress ? h('span', {class: 'passages muted'}, ' · ' + passagesSummary(j.progress)) : null),
    h('td', {class: 'wide-only'}, time(j.createdAt))));
  main.append(
    rows.length
      ? h('div', {class: 'table-wrap'}, h('table', {id: 'jobs'},
        h('thead', {}, h('tr', {}, h('th', {}, 'Job'), h('th', {}, 'State'), h('th', {}, 'Corpus'),
          h('th', {}, 'Files'), h('th', {class: 'wide-only'}, 'Created'))),
        h('tbody', {}, rows)))
      : h('p', {class: 'banner info', id: 'no-jobs'},
        corpus || p.get('state') ? 'No job you may read matches.' : 'No job you may read yet.'),
    pager('jobs', here, p.get('cursor'), page.nextCursor));
}

/** "3 files: 2 indexed · 1 failed": the total and every status some file is in. */
function countsSummary(counts) {
  const parts = COUNTS.slice(1).filter(k => counts[k] > 0).map(k => `${num(counts[k])} ${k}`);
  const total = `${num(counts.files || 0)} ${counts.files === 1 ? 'file' : 'files'}`;
  return parts.length ? `${total}: ${parts.join(' · ')}` : total;
}

/**
 * "120 of about 480 passages embedded · 12.5 per second · about 29 s left": the figures the server
 * knows; "about" where the total is still an estimate (files not yet read) and for any time left.
 */
export function passagesSummary(progress) {
  const total = typeof progress.passagesTotal === 'number'
    ? ` of ${progress.totalEstimated ? 'about ' : ''}${num(progress.passagesTotal)}` : '';
  const parts = [`${num(progress.passagesEmbedded || 0)}${total} passages embedded`];
  if (typeof progress.passagesPerSecond === 'number') {
    parts.push(`${progress.passagesPerSecond.toFixed(1)} per second`);
  }
  if (typeof progress.secondsLeft === 'number') parts.push(`about ${duration(progress.secondsLeft)} left`);
  return parts.join(' · ');
}

function duration(seconds) {
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  return minutes < 120 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** One job: its summary and a page of its files. */
async function jobDetail(main, ctx) {
  const p = ctx.params;
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
        ['Passages', job.progress ? h('span', {id: 'job-passages'}, passagesSummary(job.progress)) : null],
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
      ? h('a', {class: 'mono', href: '#/source?' + new URLSearchParams({corpus: job.corpus, source: f.source})}, shownId(f.source))
      : h('span', {class: 'mono'}, shownId(f.source))),
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
