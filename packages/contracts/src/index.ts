/**
 * One contract per wire shape: the TypeBox schemas of every shape that crosses a process or the network.
 * The API validates and documents with them, ingest and the rules worker share the uplink record, the
 * notifier and the rules worker share the job payloads, and the console imports their `Static<>` types.
 */
export * from './api/index';
export * from './jobs';
export * from './uplinks';
