// Ingest: drop files (or folders), upload a few at a time with progress, show each receipt or
// typed error as it arrives, and a summary. One failed file never stops the others.
import * as api from './api.js';
import {bytes, h, num, replace} from './dom.js';
import {corpusPicker} from './common.js';
import {errorLine} from './words.js';

/** Uploads in flight at once: enough to keep the extraction workers busy, few enough to be fair. */
const PARALLEL = 3;
/** Files one drop may add (a dropped folder is walked to this many files). */
const MAX_FILES = 1000;

export async function ingestView(main, ctx) {
  const features = ctx.protocol.features || [];
  const picker = await corpusPicker(ctx, ctx.params.get('corpus'), c => ctx.grants.can(c, 'index'),
    corpus => ctx.go('ingest', {corpus}));
  if (!ctx.current()) return;
  if (!features.includes('document-ingestion')) {
    replace(main, h('h1', {}, 'Ingest'), h('p', {class: 'banner info'}, 'This server does not ingest documents.'));
    return;
  }
  const corpusOf = () => (picker.select ? picker.select.value : picker.value);
  const prefix = h('input', {type: 'text', id: 'source-prefix', placeholder: 'uploads/', autocomplete: 'off',
    spellcheck: 'false', 'aria-describedby': 'prefix-help'});
  const list = h('ol', {class: 'uploads', id: 'uploads', 'aria-live': 'polite'});
  const summary = h('p', {id: 'summary', role: 'status'});
  const queue = new UploadQueue(list, summary);
  const add = files => {
    const corpus = corpusOf();
    if (!corpus) return;
    for (const {file, path} of files.slice(0, MAX_FILES)) queue.add(corpus, prefix.value + path, file);
  };
  const input = h('input', {type: 'file', id: 'files', multiple: true,
    onchange: () => { add([...input.files].map(file => ({file, path: file.name}))); input.value = ''; }});
  const folder = h('input', {type: 'file', id: 'folder', webkitdirectory: true,
    onchange: () => { add([...folder.files].map(file => ({file, path: file.webkitRelativePath || file.name}))); folder.value = ''; }});
  const drop = h('div', {class: 'drop', id: 'drop', tabindex: '0', role: 'button',
    'aria-label': 'Drop files or folders here, or press Enter to choose files',
    onkeydown: e => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); input.click(); } },
    ondragover: e => { e.preventDefault(); drop.classList.add('over'); },
    ondragleave: () => drop.classList.remove('over'),
    ondrop: async e => {
      e.preventDefault();
      drop.classList.remove('over');
      add(await droppedFiles(e.dataTransfer));
    }},
  h('p', {}, h('strong', {}, 'Drop files or folders here')),
  h('p', {class: 'muted'}, 'PDF, Word, PowerPoint, Excel, HTML, Markdown, text, EPUB…',
    features.includes('pdf-ingestion') ? '' : ' (not PDF on this server)'));
  replace(main,
    h('h1', {}, 'Ingest documents'),
    h('div', {class: 'row'}, picker.node, h('label', {class: 'grow'}, 'Source id prefix', prefix)),
    h('p', {id: 'prefix-help', class: 'muted'},
      'Each file becomes the source named prefix + its file name (its path, for a folder). Uploading the same name again replaces that source.'),
    drop,
    h('div', {class: 'row'}, h('label', {}, 'Choose files', input), h('label', {}, 'Or a folder', folder)),
    summary, list);
}

/** The files of a drop, walking dropped folders where the browser allows it. */
async function droppedFiles(transfer) {
  const entries = [...transfer.items].map(i => (i.webkitGetAsEntry ? i.webkitGetAsEntry() : null));
  if (entries.some(e => !e)) return [...transfer.files].map(file => ({file, path: file.name}));
  const out = [];
  const walk = async (entry, path) => {
    if (out.length >= MAX_FILES) return;
    if (entry.isFile) {
      out.push({file: await new Promise((ok, no) => entry.file(ok, no)), path: path + entry.name});
    } else if (entry.isDirectory) {
      const reader = entry.createReader();
      for (;;) {
        const batch = await new Promise((ok, no) => reader.readEntries(ok, no));
        if (!batch.length) break;
        for (const child of batch) await walk(child, `${path}${entry.name}/`);
      }
    }
  };
  for (const entry of entries) await walk(entry, '');
  return out;
}

/** Files waiting, uploading and done; at most PARALLEL uploads at once. */
class UploadQueue {
  constructor(list, summary) {
    this.list = list;
    this.summary = summary;
    this.waiting = [];
    this.running = 0;
    this.counts = {indexed: 0, unchanged: 0, failed: 0, total: 0};
  }

  add(corpus, source, file) {
    const progress = h('progress', {max: '1', value: '0', 'aria-label': `Upload of ${source}`});
    const state = h('div', {class: 'state'}, 'Waiting');
    const row = h('li', {class: 'upload', 'data-source': source},
      h('div', {}, h('div', {class: 'name mono'}, source), h('div', {class: 'muted'}, bytes(file.size))),
      progress, state);
    this.list.append(row);
    this.counts.total++;
    this.waiting.push({corpus, source, file, progress, state, row});
    this.showSummary();
    this.pump();
  }

  pump() {
    while (this.running < PARALLEL && this.waiting.length) {
      const job = this.waiting.shift();
      this.running++;
      this.run(job).finally(() => {
        this.running--;
        this.showSummary();
        this.pump();
      });
    }
  }

  async run(job) {
    job.state.textContent = 'Uploading';
    try {
      const receipt = await api.ingest({corpus: job.corpus, source: job.source}, job.file, fraction => {
        job.progress.value = fraction;
        job.state.textContent = fraction < 1 ? `Uploading ${Math.round(fraction * 100)}%` : 'Extracting and indexing…';
      });
      job.progress.value = 1;
      this.counts[receipt.status === 'unchanged' ? 'unchanged' : 'indexed']++;
      job.row.dataset.status = receipt.status;
      replace(job.state, receiptNode(receipt));
      job.state.className = 'state ok';
    } catch (err) {
      this.counts.failed++;
      job.row.dataset.status = 'failed';
      job.row.dataset.code = err.code;
      replace(job.state, errorLine(err));
      job.state.className = 'state bad';
      job.state.setAttribute('role', 'alert');
    }
  }

  showSummary() {
    const c = this.counts;
    const left = c.total - c.indexed - c.unchanged - c.failed;
    this.summary.textContent = `${c.total} file${c.total === 1 ? '' : 's'}: ${c.indexed} indexed, `
      + `${c.unchanged} unchanged, ${c.failed} failed${left ? `, ${left} to go` : ''}.`;
  }
}

function receiptNode(r) {
  const facts = [r.mediaType, r.extractor, r.pages ? `${num(r.pages)} page${r.pages === 1 ? '' : 's'}` : null,
    r.characters !== undefined ? `${num(r.characters)} characters` : null, `${num(r.chunks)} chunk${r.chunks === 1 ? '' : 's'}`].filter(Boolean);
  return [
    h('strong', {}, r.status === 'unchanged' ? `Unchanged at revision ${num(r.revision)}` : `Indexed at revision ${num(r.revision)}`),
    ' ', h('a', {href: '#/source?' + new URLSearchParams({corpus: r.corpus, source: r.source})}, 'open'),
    h('div', {class: 'muted'}, facts.join(' · ')),
    (r.warnings || []).length
      ? h('ul', {class: 'warnings'}, r.warnings.map(w => h('li', {}, h('code', {}, w.code), ' ', w.message)))
      : null,
  ];
}
