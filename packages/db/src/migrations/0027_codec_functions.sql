-- Codecs customers upload (issue 23): which TS013 entry points a codec defines, found by loading it in
-- the sandbox when it is saved (decodeUplink, encodeDownlink, decodeDownlink, or the legacy Decoder,
-- Decode, Encoder, ...), so the console can offer "test encode" only where there is an encoder.
ALTER TABLE codecs ADD COLUMN functions text[] NOT NULL DEFAULT '{}';
-- The API refuses larger sources (90013) before this; the check keeps any other writer to the same bound.
ALTER TABLE codecs ADD CONSTRAINT codecs_script_size CHECK (octet_length(script) <= 262144);
