// Reads a run's text/event-stream and holds it to the wire's rules for events (docs/runs.md).
import { QuarryError, isObject } from './errors.js';
import type { RunEvent } from './types.js';

const KNOWN = new Set(['run.started', 'run.progress', 'run.completed', 'run.failed', 'run.cancelled']);
const TERMINAL = new Set(['run.completed', 'run.failed', 'run.cancelled']);

/** The `data` of each server-sent event of a body, in order (comments and `id` lines skipped). */
async function* frames(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let buffered = '';
  let data: string[] = [];
  for await (const bytes of body) {
    buffered += decoder.decode(bytes, { stream: true });
    let end;
    while ((end = buffered.search(/\r\n|\r|\n/)) >= 0) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + (buffered.startsWith('\r\n', end) ? 2 : 1));
      if (line === '') {
        if (data.length > 0) yield data.join('\n');
        data = [];
      } else if (line.startsWith('data:')) {
        data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
      }
      // Lines starting with ':' are heartbeats; 'id:' repeats the sequence, which the event carries.
    }
  }
  buffered += decoder.decode();
  if (data.length > 0 || buffered.length > 0) {
    throw invalid('the event stream ended inside an event');
  }
}

/**
 * The run's events, each checked: a nonempty `type` and the same `runId` throughout, a `timestamp`, a
 * `sequence` from 1 growing by exactly one, `run.started` first and exactly one terminal event last.
 * An unknown event is skipped when it says `"optional": true`, else it is UNSUPPORTED_EVENT.
 */
export async function* runEvents(body: ReadableStream<Uint8Array>, requestId: string | undefined): AsyncGenerator<RunEvent> {
  let expected = 1;
  let runId: string | undefined;
  let ended = false;
  for await (const data of frames(body)) {
    if (ended) throw invalid('an event followed the terminal event', requestId);
    let event: unknown;
    try {
      event = JSON.parse(data);
    } catch {
      throw invalid('an event is not JSON', requestId);
    }
    if (!isObject(event) || typeof event['type'] !== 'string' || event['type'] === ''
        || typeof event['runId'] !== 'string' || event['runId'] === '' || typeof event['timestamp'] !== 'string'
        || typeof event['sequence'] !== 'number') {
      throw invalid('an event lacks its type, runId, timestamp or sequence', requestId);
    }
    if (event['sequence'] !== expected) {
      throw invalid(`event ${String(event['sequence'])} arrived where ${expected} was due`, requestId);
    }
    if (runId === undefined ? event['type'] !== 'run.started' : event['runId'] !== runId) {
      throw invalid(runId === undefined ? 'the first event is not run.started' : 'an event names another run', requestId);
    }
    runId = event['runId'];
    expected++;
    if (!KNOWN.has(event['type'])) {
      if (event['optional'] === true) continue;
      throw new QuarryError(`unknown run event '${event['type']}'`, { code: 'UNSUPPORTED_EVENT', status: 200, requestId, runId });
    }
    ended = TERMINAL.has(event['type']);
    yield event as RunEvent;
  }
  if (ended) return;
  throw invalid('the event stream ended without its terminal event', requestId);
}

function invalid(message: string, requestId?: string): QuarryError {
  return new QuarryError(message, { code: 'INVALID_STREAM', status: 200, requestId });
}
