-- A codec that keeps running past its time budget (issue #28, finding 3) is suspended: ingest stops calling
-- it and keeps its devices' uplinks raw in the device log until someone saves the codec again (which clears
-- the suspension). The state is here, not only in the process that noticed, so every ingest process stops
-- calling it (within the 30 s its codec cache keeps a script) and the console shows it.
ALTER TABLE codecs ADD COLUMN suspended_at timestamptz, ADD COLUMN suspended_reason text;
