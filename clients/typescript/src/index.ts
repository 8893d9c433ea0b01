/**
 * A client of a Quarry server (docs/client.md, "TypeScript"): {@link QuarryClient}, whose methods
 * are the endpoints of the server's OpenAPI document; {@link QuarryError}, every failure; and the
 * wire's types, generated from that document.
 */
export { QuarryClient, WIRE_VERSION } from './client.js';
export type { QuarryClientOptions, CallOptions, MutationOptions, WaitOptions } from './client.js';
export { QuarryError } from './errors.js';
export type { ErrorCode, ClientErrorCode, QuarryErrorDetails } from './errors.js';
export type * from './types.js';
export type { components, operations, paths } from './openapi.js';
