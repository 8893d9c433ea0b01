// Compiled (never run) by generated.test.mjs: what the types allow and refuse, through the
// declarations the package ships (dist/index.d.ts).
import { QuarryClient, QuarryError, type Filter, type SearchRequest, type Hit } from '../dist/index.js';

declare const quarry: QuarryClient;

export async function allowed(): Promise<void> {
  const filter: Filter = { department: 'hr', year: { gte: 2020 }, or: [{ tags: { in: ['a', 'b'] } }, { not: { draft: true } }] };
  const request: SearchRequest = { corpus: 'handbook', query: 'leave', filter, topK: 5, revision: 42, snippet: { maxChars: 80 } };
  const found = await quarry.search(request);
  const hit: Hit = found.results[0]!;
  const pages: number | undefined = hit.pages?.from;
  void pages;
  await quarry.createCorpus({ corpus: 'c', settings: { language: 'cjk', chunking: { maxWords: 100 } } });
  await quarry.ingest({ corpus: 'c', source: 'a.pdf', metadata: { year: 2024 } }, { data: new Uint8Array([1]) });
  await quarry.submitJob({ corpus: 'c', files: [{ source: 'a.txt', data: 'text', title: 'A' }] });
  for await (const event of quarry.streamRun({ provider: 'retrieval', input: 'q', retrieval: { corpus: 'c' } })) {
    const type: 'run.started' | 'run.progress' | 'run.completed' | 'run.failed' | 'run.cancelled' = event.type;
    void type;
  }
  try {
    await quarry.readCorpus({ corpus: 'c' });
  } catch (e) {
    if (e instanceof QuarryError && e.code === 'CORPUS_NOT_FOUND') {
      const field: string | undefined = e.field;
      const requestId: string | undefined = e.requestId;
      void [field, requestId];
    }
  }
}

export async function refused(): Promise<void> {
  // @ts-expect-error a field the document does not name
  await quarry.search({ corpus: 'c', query: 'q', topk: 5 });
  // @ts-expect-error a number is not a string
  await quarry.search({ corpus: 'c', query: 5 });
  // @ts-expect-error query is required
  await quarry.search({ corpus: 'c' });
  // @ts-expect-error null is not a value on the wire
  await quarry.indexSource({ corpus: 'c', source: 's', text: 't', title: null });
  // @ts-expect-error an unknown setting
  await quarry.createCorpus({ corpus: 'c', settings: { langauge: 'english' } });
  // @ts-expect-error a language the document does not list
  await quarry.createCorpus({ corpus: 'c', settings: { language: 'klingon' } });
  // @ts-expect-error stream is the method's choice
  await quarry.run({ provider: 'retrieval', input: 'q', stream: true });
}
