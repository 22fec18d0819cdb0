/** The demo companies (explicit ids) and their users, every one with the demo password. */
import type { Queryable } from '@iot/db';
import { hash } from '@node-rs/argon2';
import { DEMO_COMPANIES, DEMO_LOGINS, DEMO_PASSWORD } from './demo-accounts.js';
import { MAP_CENTRE } from './seed-rows.js';

export async function seedCompanies(tx: Queryable): Promise<void> {
  const de = await tx.query<{ id: number }>(`SELECT id FROM countries WHERE code = 'DE'`);
  const countryId = de.rows[0]?.id ?? null;
  const companies = [
    {
      ...DEMO_COMPANIES.superAdmin,
      modules: ['map_view', 'parking', 'farming', 'water_association', 'external_api', 'paid_messaging'],
      isNwa: false,
    },
    {
      ...DEMO_COMPANIES.demo,
      // Every module, so the demo shows them all (SMS and voice alarms need paid messaging, the parking
      // NGSI-LD export the external API).
      modules: ['map_view', 'parking', 'farming', 'water_association', 'external_api', 'paid_messaging'],
      isNwa: false,
    },
    { ...DEMO_COMPANIES.other, modules: ['map_view'], isNwa: false },
    { ...DEMO_COMPANIES.waterAssociation, modules: ['map_view', 'water_association'], isNwa: true },
  ];
  for (const c of companies) {
    await tx.query(
      `INSERT INTO companies (id, name, street, street_number, zip, city, country_id, email, modules, is_nwa,
                              latitude, longitude)
       VALUES ($1, $2, 'Hauptstraße', $3, '79100', 'Freiburg im Breisgau', $4, $5, $6, $7, $8, $9)`,
      [
        c.id,
        c.name,
        String(c.id * 7),
        countryId,
        `office${c.id}@demo.test`,
        c.modules,
        c.isNwa,
        MAP_CENTRE.latitude,
        MAP_CENTRE.longitude,
      ],
    );
  }
  // Explicit ids above; move the sequence past them so new companies get fresh ids.
  await tx.query(`SELECT setval(pg_get_serial_sequence('companies', 'id'), (SELECT max(id) FROM companies))`);
}

export async function seedUsers(tx: Queryable): Promise<void> {
  for (const login of DEMO_LOGINS) {
    await tx.query(
      `INSERT INTO users (company_id, email, name, password_hash, locale, roles, eula_accepted)
       VALUES ($1, $2, $3, $4, $5, $6, true)`,
      [login.companyId, login.email, login.name, await hash(DEMO_PASSWORD), 'de', login.roles],
    );
  }
}
