-- Farming (issue 24; spec sections 3, 4, 7) on the tables of 0004: what the module needs beyond them.
--
-- farming_fields.geometry is the boundary (GeoJSON Polygon or MultiPolygon, WGS84); its area is computed
-- by the API when it is written and kept beside it, only to be compared with size_m2 (the sum of the
-- parcels, spec section 4), never to replace it.
ALTER TABLE farming_fields ADD COLUMN boundary_area_m2 double precision;

-- Parcels: an optional boundary and validity dates (IACS application years).
ALTER TABLE parcels ADD COLUMN boundary jsonb;
ALTER TABLE parcels ADD COLUMN valid_from date;
ALTER TABLE parcels ADD COLUMN valid_to date;

-- Soils and plants: the built-in catalogues live in @iot/domain and are copied into a company's table by
-- code the first time one of its fields uses them; a company adds its own entries by code as well.
ALTER TABLE soils ADD COLUMN code text;
ALTER TABLE soils ADD COLUMN name_en text;
UPDATE soils SET code = name WHERE code IS NULL;
UPDATE soils SET name_en = name WHERE name_en IS NULL;
ALTER TABLE soils ALTER COLUMN code SET NOT NULL;
ALTER TABLE soils ALTER COLUMN name_en SET NOT NULL;
CREATE UNIQUE INDEX soils_company_code ON soils (company_id, code);

ALTER TABLE plants ADD COLUMN code text;
ALTER TABLE plants ADD COLUMN name_en text;
UPDATE plants SET code = name WHERE code IS NULL;
UPDATE plants SET name_en = name WHERE name_en IS NULL;
ALTER TABLE plants ALTER COLUMN code SET NOT NULL;
ALTER TABLE plants ALTER COLUMN name_en SET NOT NULL;
CREATE UNIQUE INDEX plants_company_code ON plants (company_id, code);

-- Tasks (issue 24 task planner): the statuses of the planner (late is derived from due_at, not stored),
-- a reason when abandoned, and the rule whose action created the task.
ALTER TABLE tasks DROP CONSTRAINT IF EXISTS tasks_status_check;
UPDATE tasks SET status = 'planned' WHERE status = 'open';
UPDATE tasks SET status = 'abandoned' WHERE status = 'cancelled';
ALTER TABLE tasks ALTER COLUMN status SET DEFAULT 'planned';
ALTER TABLE tasks ADD CONSTRAINT tasks_status_check
  CHECK (status IN ('planned', 'in_progress', 'done', 'abandoned'));
ALTER TABLE tasks ADD COLUMN abandon_reason text;
ALTER TABLE tasks ADD COLUMN completed_at timestamptz;
ALTER TABLE tasks ADD COLUMN source_rule_id bigint REFERENCES rules(id) ON DELETE SET NULL;
