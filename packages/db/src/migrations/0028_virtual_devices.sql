-- Virtual devices (spec section 2 "add virtual device", issue 23): a device without hardware whose data
-- fields are formulas over other devices' fields of the same company. virtual_fields holds
-- [{key, formula}] (NULL for a device with hardware); a formula names an input as d<device id>.<field>.
-- virtual_device_inputs lists the devices the formulas read, so the rules worker finds, for an uplink,
-- the virtual devices to compute with one indexed lookup. Both foreign keys carry the company: an input
-- can never be another company's device, whatever the application does.
ALTER TABLE devices ADD COLUMN virtual_fields jsonb;

CREATE TABLE virtual_device_inputs (
  company_id        bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  virtual_device_id bigint NOT NULL,
  input_device_id   bigint NOT NULL,
  PRIMARY KEY (virtual_device_id, input_device_id),
  FOREIGN KEY (virtual_device_id, company_id) REFERENCES devices (id, company_id) ON DELETE CASCADE,
  FOREIGN KEY (input_device_id, company_id) REFERENCES devices (id, company_id) ON DELETE CASCADE
);
CREATE INDEX virtual_device_inputs_input_idx ON virtual_device_inputs (input_device_id);
SELECT app_enable_tenant_rls('virtual_device_inputs');
