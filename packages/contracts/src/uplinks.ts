// The uplink record on the event log topic `uplinks`, written by ingest and read by the storage writer
// and the rules worker.
export {};
