/**
 * `npm run admin:create -- --email admin@example.com [--name "Ada Admin"]`: the first super admin of a
 * deployment, with the same configuration (environment) as the API. Creates and migrates the database when
 * needed, then prints a one-time sign-in link (the password reset flow). Refused once a super admin exists.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '@iot/config';
import { DatabaseMissingError } from '@iot/db';
import { isApiError } from '@iot/domain';
import { openDatabase, publicBaseUrl } from './first-start';
import { createFirstAdmin } from './services/create-first-admin';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { email: { type: 'string' }, name: { type: 'string' } } });
  if (!values.email) {
    console.error('usage: npm run admin:create -- --email <address> [--name <name>]');
    return 2;
  }
  const config = loadConfig();
  const db = await openDatabase(config, { migrate: true });
  try {
    const result = await createFirstAdmin(db, {
      email: values.email,
      name: values.name,
      baseUrl: publicBaseUrl(config),
      onlyIfEmpty: false,
    });
    if (!result.created) {
      console.error(
        `a super admin exists already (${result.email}); they add others, or use "forgot password" to sign in`,
      );
      return 1;
    }
    console.log(`Super admin ${result.email} created. Choose the password here (the link works once):`);
    console.log(result.link);
    console.log(`valid until ${result.expiresAt.toISOString()}`);
    return 0;
  } finally {
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof DatabaseMissingError || error instanceof ConfigError) console.error(error.message);
    else if (isApiError(error))
      console.error(`invalid input: ${JSON.stringify(error.details ?? error.message)}`);
    else console.error(error);
    process.exit(1);
  },
);
