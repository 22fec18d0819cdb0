-- The storage writer updates every active device's status row (last online, battery, signal) and its
-- latest values (device_current) once per group commit, thousands of rows per second under load.
-- PostgreSQL can update a row in place on its page (a HOT update: no new index entries) only when no
-- indexed column changes and the page has room. devices_company_last_online_idx made every status
-- update write a new entry into each of the table's indexes; the only query it served is the device
-- list's "stale" filter, which already reads one company's devices through devices_company_name_idx.
-- Measured with apps/ingest/bench/writer-sql.bench.ts (2,500 envelopes per write over 2,000 devices):
-- the status update went from about 20 to 8 us per envelope.
-- fillfactor leaves room on each page for the new row versions; it applies to pages written from now
-- on (an existing installation gets it for the rows it rewrites, or all at once by VACUUM FULL).
DROP INDEX devices_company_last_online_idx;
ALTER TABLE devices SET (fillfactor = 70);
ALTER TABLE device_current SET (fillfactor = 70);
