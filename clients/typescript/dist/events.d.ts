import type { RunEvent } from './types.js';
/**
 * The run's events, each checked: a nonempty `type` and the same `runId` throughout, a `timestamp`, a
 * `sequence` from 1 growing by exactly one, `run.started` first and exactly one terminal event last.
 * An unknown event is skipped when it says `"optional": true`, else it is UNSUPPORTED_EVENT.
 */
export declare function runEvents(body: ReadableStream<Uint8Array>, requestId: string | undefined): AsyncGenerator<RunEvent>;
