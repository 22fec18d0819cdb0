/**
 * A water association world for tests (issue #26): the association with its users, an admin member, a
 * plain member, a third company asking to join and an outsider, each with a main, admin and plain user;
 * the plain member owns a water meter shared with the association and a second device it keeps private.
 */
import type { Db } from '@iot/db';
import { createDevice, insertData } from './device-fixtures';
import { createCompany, createTeam, createUser } from './fixtures';

export async function createWaterWorld(db: Db) {
  const nwaCompany = await createCompany(db, {
    name: 'Wasserverband Test',
    modules: ['water_association'],
    isNwa: true,
  });
  const nwa = {
    company: nwaCompany,
    main: await createUser(db, nwaCompany.id, { roles: ['ROLE_MAINUSER'] }),
    admin: await createUser(db, nwaCompany.id, { roles: ['ROLE_ADMIN'] }),
    plain: await createUser(db, nwaCompany.id, { roles: [] }),
  };
  const adminMember = await createTeam(db, { modules: ['water_association'] });
  const member = await createTeam(db, { modules: ['water_association'] });
  const requester = await createTeam(db, { modules: ['water_association'] });
  const outsider = await createTeam(db, { modules: ['water_association'] });
  const unlicensed = await createTeam(db);
  await db.query(
    `INSERT INTO nwa_members (nwa_company_id, company_id, is_admin) VALUES ($1, $2, true), ($1, $3, false)`,
    [nwa.company.id, adminMember.company.id, member.company.id],
  );
  await db.query('INSERT INTO nwa_membership_requests (nwa_company_id, company_id) VALUES ($1, $2)', [
    nwa.company.id,
    requester.company.id,
  ]);
  const meter = await createDevice(db, member.company.id, { name: 'Zähler Brunnen' });
  const privateDevice = await createDevice(db, member.company.id, { name: 'Privat' });
  const adminMeter = await createDevice(db, adminMember.company.id, { name: 'Zähler Hof' });
  await db.query(
    `INSERT INTO nwa_shared_devices (nwa_company_id, company_id, device_id, counts_against_company_id)
     VALUES ($1, $2, $3, $2)`,
    [nwa.company.id, member.company.id, meter.id],
  );
  await db.query(
    `INSERT INTO rules (company_id, device_id, data_field, operator, value) VALUES ($1, $2, 'counter_1', 'gte', 5)`,
    [member.company.id, meter.id],
  );
  await insertData(db, member.company.id, privateDevice.id, [{ at: new Date(), data: { temperature: 20 } }]);
  return { nwa, adminMember, member, requester, outsider, unlicensed, meter, privateDevice, adminMeter };
}

export type WaterWorld = Awaited<ReturnType<typeof createWaterWorld>>;

/**
 * The plain member's irrigation valve (an MQTT device whose driver switches solenoid valves), shared with
 * the association with control and counting against the member.
 */
export async function addControlValve(db: Db, w: WaterWorld) {
  const valve = await createDevice(db, w.member.company.id, {
    name: 'Ventil Brunnen',
    driver_id: 'nbiot_soil_sensor',
  });
  await db.query(
    `INSERT INTO nwa_shared_devices (nwa_company_id, company_id, device_id, access, counts_against_company_id)
     VALUES ($1, $2, $3, 'control', $2)`,
    [w.nwa.company.id, w.member.company.id, valve.id],
  );
  return valve;
}
