import type { DbSuite } from '@iot/db/testing';
import { createDevice } from '../../../../../test/device-fixtures';
import { createTeam } from '../../../../../test/fixtures';
import { useRouteApp } from '../../../../../test/route-suite';

/** A data rule with one e-mail action, as the console sends it. */
export const EMAIL_RULE = {
  name: 'Too hot',
  trigger: 'data',
  data_field: 'temperature',
  operator: 'gte',
  value: 30,
  time_window_seconds: 300,
  schedule: { start: '08:00', end: '18:00', weekdays: [1, 2, 3, 4, 5] },
  max_actions: 2,
  max_actions_period_seconds: 3600,
  actions: [
    {
      channel: 'email',
      config: {
        recipient: 'ops@example.test',
        cc: 'a@example.test; b@example.test',
        subject: 'Hot',
        body: '{value}',
      },
    },
  ],
};

/** The rule routes' test app, a company with a device and its main user, and the stored rules and actions. */
export function useRulesSuite(suite: DbSuite) {
  const { signIn } = useRouteApp(suite);

  /** A company with the paid messaging module (SMS and voice actions) unless `modules` says otherwise. */
  async function world(modules: string[] = ['paid_messaging']) {
    const team = await createTeam(suite.db, { modules });
    const device = await createDevice(suite.db, team.company.id);
    const client = await signIn(team.main.email);
    return { team, device, client };
  }

  async function ruleRows(deviceId: number) {
    const { rows } = await suite.db.query<Record<string, unknown>>(
      `SELECT id::int AS id, company_id::int AS company_id, name, trigger, data_field, operator, value, range_min,
              range_max, time_window_seconds, schedule_start::text AS schedule_start, schedule_end::text AS schedule_end,
              schedule_weekdays::int[] AS schedule_weekdays, max_actions, click_type::int AS click_type, state
         FROM rules WHERE device_id = $1 ORDER BY id`,
      [deviceId],
    );
    return rows;
  }

  async function actionRows(ruleId: number) {
    const { rows } = await suite.db.query<Record<string, unknown>>(
      `SELECT type, recipients, cc, subject, body, voice_language, url, http_method, target_device_id::int AS target,
              command, command_params, settings
         FROM rule_actions WHERE rule_id = $1 ORDER BY position`,
      [ruleId],
    );
    return rows;
  }
  return { signIn, world, ruleRows, actionRows };
}
