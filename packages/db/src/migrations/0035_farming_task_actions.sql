-- Farming (issue 24): a rule action that creates a farming task, and tasks on several fields.

-- The action type farming_task: the notifier creates a task when the rule fires (title in subject,
-- notes in body, task type, fields, due offset and assignee in settings); its deliveries are logged
-- like every other channel's.
ALTER TABLE rule_actions DROP CONSTRAINT rule_actions_type_check;
ALTER TABLE rule_actions ADD CONSTRAINT rule_actions_type_check
  CHECK (type IN ('email', 'sms', 'voice_message', 'system', 'http', 'remote_control', 'farming_task'));
ALTER TABLE notification_log DROP CONSTRAINT notification_log_channel_check;
ALTER TABLE notification_log ADD CONSTRAINT notification_log_channel_check
  CHECK (channel IN ('system', 'email', 'remote_control', 'sms', 'voice_message', 'http', 'farming_task'));

-- A task is on any number of the company's fields (research §6: fieldIds); the single tasks.field_id
-- moves here. Deleting a field takes it off its tasks; the tasks stay.
ALTER TABLE tasks ADD CONSTRAINT tasks_id_company_key UNIQUE (id, company_id);
CREATE TABLE task_fields (
  company_id bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  task_id    bigint NOT NULL,
  field_id   bigint NOT NULL,
  PRIMARY KEY (task_id, field_id),
  FOREIGN KEY (task_id, company_id) REFERENCES tasks (id, company_id) ON DELETE CASCADE,
  FOREIGN KEY (field_id, company_id) REFERENCES farming_fields (id, company_id) ON DELETE CASCADE
);
CREATE INDEX task_fields_field_idx ON task_fields (field_id);
SELECT app_enable_tenant_rls('task_fields');
INSERT INTO task_fields (company_id, task_id, field_id)
  SELECT company_id, id, field_id FROM tasks WHERE field_id IS NOT NULL;
ALTER TABLE tasks DROP COLUMN field_id;
