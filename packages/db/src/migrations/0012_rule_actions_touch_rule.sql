-- The rules worker keeps rules in memory and reads only their row versions (xmin) per batch
-- (apps/rules-worker rule-cache.ts). A rule's actions are part of its definition, so each batch also
-- aggregated the versions of every rule's action rows: a correlated subquery per rule, about 7 of the
-- 12 ms of the batch's input read on PGlite. Now every change of a rule's actions (the console's save,
-- a deleted target device, scripts) touches the rule's row, so the rule's own version covers them, and
-- updated_at tells when the rule or its actions last changed. A rule being deleted (its actions go by
-- cascade) is not found any more and not touched.
CREATE FUNCTION rule_actions_touch_rule() RETURNS trigger
  LANGUAGE plpgsql
  AS $fn$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE rules SET updated_at = now() WHERE id = OLD.rule_id;
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.rule_id <> OLD.rule_id) THEN
    UPDATE rules SET updated_at = now() WHERE id = NEW.rule_id;
  END IF;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER rule_actions_touch_rule AFTER INSERT OR UPDATE OR DELETE ON rule_actions
  FOR EACH ROW EXECUTE FUNCTION rule_actions_touch_rule();
