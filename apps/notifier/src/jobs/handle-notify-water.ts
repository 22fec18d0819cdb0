/**
 * One notify.water job (issue #26): a water usage warning mailed or texted to one main user or admin, in
 * their language, or one valve of the member closed by the "switch solenoid valve" command, through the
 * notifier's own email, SMS and remote control channels. The warning was claimed once by the rules
 * worker's timer; the job's idempotency key makes each delivery happen once.
 */
import type { NotifyWaterPayload } from '@iot/contracts';
import { type Db, findWarningRecipient, findWaterWarning, listControlValves } from '@iot/db';
import { waterWarningText } from '@iot/domain';
import { type JobContext, PermanentJobError } from '@iot/jobs';
import type { Logger } from '@iot/runtime';
import type { Channels } from '../channels/channels';
import { type ActionContext, ChannelNotConfiguredError, PermanentDeliveryError } from '../context';
import { formatCompanyTime } from '../format-time';

export interface NotifyWaterDeps {
  db: Db;
  channels: Pick<Channels, 'email' | 'sms' | 'remote_control'>;
  log: Logger;
}

export async function handleNotifyWater(
  deps: NotifyWaterDeps,
  payload: NotifyWaterPayload,
  job: JobContext,
): Promise<unknown> {
  const { db, channels, log } = deps;
  const warning = await findWaterWarning(db, payload.warningId);
  if (!warning) throw new PermanentJobError(`water warning ${payload.warningId} not found`);
  const ctx = (companyName: string): ActionContext => ({
    company: { id: payload.companyId, name: companyName, timeZone: warning.timeZone },
    // The warning's text is worded for its recipient below; no `{field}` template is filled here.
    language: 'en',
    device: { id: payload.channel === 'valve' ? payload.deviceId : null, uuid: '', name: warning.memberName },
    rule: null,
    alarmId: null,
    field: null,
    value: warning.value,
    unit: warning.kind === 'hour_cap' ? 'm³' : '%',
    at: warning.createdAt,
    time: formatCompanyTime(warning.createdAt, warning.timeZone),
    idempotencyKey: job.idempotencyKey,
  });
  try {
    if (payload.channel === 'valve') {
      // The share may have been taken back, or read-only, since the warning: then nothing is closed.
      const valves = await listControlValves(db, warning.nwaId, warning.companyId);
      if (!valves.some((v) => v.deviceId === payload.deviceId && v.ownerCompanyId === payload.companyId)) {
        log.info({ payload }, 'water valve no longer shared with control: not closed');
        return { skipped: 'not shared with control' };
      }
      return await channels.remote_control.send(ctx(warning.memberName), {
        targetDeviceId: payload.deviceId,
        command: 'switch_solenoid_valve',
        params: { valve: payload.valve, on: false },
      });
    }
    const to = await findWarningRecipient(db, payload.userId, payload.companyId);
    if (!to) return { skipped: 'recipient gone' };
    const text = waterWarningText(
      {
        kind: warning.kind,
        association: warning.nwaName,
        member: warning.memberName,
        value: warning.value,
        valvesClosed: warning.kind === 'year_100' && warning.closeValvesAtLimit,
      },
      to.locale,
    );
    if (payload.channel === 'email') {
      return await channels.email.send(ctx(warning.nwaName), {
        to: [to.email],
        cc: [],
        subject: text.subject,
        body: text.body,
      });
    }
    if (!to.phone) return { skipped: 'no phone number' };
    return await channels.sms.send(ctx(warning.nwaName), { to: to.phone, body: text.sms });
  } catch (error) {
    if (error instanceof ChannelNotConfiguredError) return { skipped: error.message };
    if (error instanceof PermanentDeliveryError) throw new PermanentJobError(error.message);
    throw error;
  }
}
