// State at a glance: what a support engineer screenshots.
import * as api from './api.js';
import {facts, h, num, replace} from './dom.js';
import {errorBlock} from './words.js';

export async function statusView(main, ctx) {
  let health;
  try {
    health = await api.health();
  } catch (e) {
    health = {error: e};
  }
  const protocol = await api.protocol();
  if (!ctx.current()) return;
  const all = ['scoped-retrieval', 'retrieval-indexing', 'document-ingestion', 'pdf-ingestion', 'ingestion-jobs'];
  const features = [...new Set([...all, ...(protocol.features || [])])];
  replace(main,
    h('h1', {}, 'Status'),
    h('section', {class: 'card', id: 'server'},
      h('h2', {}, 'Server'),
      facts([
        ['Health', health.error ? errorBlock(health.error)
          : h('span', {class: health.status === 'ok' ? 'pill ok' : 'pill bad', id: 'health'}, health.status)],
        ['Server', protocol.server ? `${protocol.server.name || 'quarry'} ${protocol.server.version || ''}` : null],
        ['Protocol version', protocol.version],
        ['Supported versions', (protocol.supportedVersions || []).join(', ')],
        ['Features', h('span', {id: 'features'}, features.map(f => h('span',
          {class: (protocol.features || []).includes(f) ? 'pill ok' : 'pill bad'},
          `${f} ${(protocol.features || []).includes(f) ? 'on' : 'off'}`)))],
        ['Address', location.origin],
      ])),
    h('section', {class: 'card', id: 'you'},
      h('h2', {}, 'Signed in as'),
      facts([['Subject', h('span', {id: 'subject'}, ctx.grants.subject)]]),
      h('div', {class: 'table-wrap'}, h('table', {id: 'grants'},
        h('thead', {}, h('tr', {}, h('th', {}, 'Corpus'), h('th', {}, 'Sources'), h('th', {}, 'Scopes'))),
        h('tbody', {}, ctx.grants.grants.map(g => h('tr', {},
          h('td', {class: 'mono'}, g.corpus), h('td', {class: 'mono'}, g.sources.join(', ')),
          h('td', {}, g.scopes.join(', ')))))))),
    h('section', {class: 'card', id: 'limits'},
      h('h2', {}, 'Limits'),
      facts(Object.entries(protocol.limits || {}).map(([k, v]) => [k, num(v)]))));
}
