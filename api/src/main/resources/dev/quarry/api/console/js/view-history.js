// A corpus's history: every change, newest pages on demand.
import * as api from './api.js';
import {h, replace} from './dom.js';
import {corpusPicker} from './common.js';
import {entryItem} from './history.js';

export async function historyView(main, ctx) {
  const p = ctx.params;
  const picker = await corpusPicker(ctx, p.get('corpus'), c => ctx.grants.can(c, 'index'),
    corpus => ctx.go('history', {corpus}));
  if (!ctx.current()) return;
  const corpus = picker.value;
  const list = h('ol', {class: 'timeline', id: 'timeline'});
  const more = h('p', {class: 'pager'});
  replace(main, h('h1', {}, 'History'), h('div', {class: 'row'}, picker.node),
    h('p', {class: 'muted'}, 'Every change in revision order: who indexed, ingested, deleted or purged which source.'),
    list, more);
  if (!corpus) return;
  const load = async after => {
    const page = await api.call('corpora/history', {corpus, after, limit: 100});
    list.append(...page.entries.map(e => entryItem(e, corpus)));
    replace(more, page.nextAfter !== undefined
      ? h('button', {type: 'button', onclick: () => load(page.nextAfter)}, 'Load more')
      : (list.childElementCount ? null : h('span', {class: 'muted'}, 'No changes yet.')));
  };
  await load(0);
}
