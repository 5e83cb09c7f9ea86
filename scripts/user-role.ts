import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { databaseSchema, readConfig, type ServerConfig } from '../src/server/app/config.ts';
import {
  findRunningServer,
  RUNNING_SERVER_FILE,
  type RunningServerRecord,
} from '../src/server/app/running-server.ts';
import { COMMAND_SIGNATURE_HEADER, signRoleCommand } from '../src/server/auth/command-signature.ts';
import { serverSecret } from '../src/server/auth/crypto.ts';
import { openDatabase } from '../src/server/db/client.ts';
import type { UserRole } from '../src/server/db/schema.ts';
import {
  changeRoleByEmail,
  describeRoleChange,
  parseRole,
  RoleCommandError,
  type RoleChange,
} from '../src/server/services/role-command.ts';

/**
 * `npm run user:role -- <email> admin|analyst|user`: gives an account a role, audited like every
 * role change (no acting account, `via: 'command'`). This is how the first administrator is made.
 * With DATABASE_URL it changes PostgreSQL directly. On the embedded PGlite database it goes through
 * the running server when one holds the data directory (PGlite allows one process), and otherwise
 * opens the database itself.
 */

const USAGE = 'usage: npm run user:role -- <email> admin|analyst|user';
const SERVER_TIMEOUT_MS = 15_000;

/** A failure to report in one line, with the exit code it ends the command with. */
class CommandFailure extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** The operating-system account running the command, kept in the audit entry. */
function operator(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? 'unknown';
  }
}

function readArguments(): { email: string; role: UserRole } {
  const { values, positionals } = parseArgs({
    options: { help: { type: 'boolean', short: 'h', default: false } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const [email, role, ...extra] = positionals;
  if (email === undefined || role === undefined || extra.length > 0) {
    throw new CommandFailure(`Give an address and a role.\n${USAGE}`, 2);
  }
  if (!email.includes('@')) {
    throw new CommandFailure(`"${email}" is not an email address.\n${USAGE}`, 2);
  }
  try {
    return { email: email.trim(), role: parseRole(role) };
  } catch (error) {
    if (error instanceof RoleCommandError) throw new CommandFailure(`${error.message}\n${USAGE}`, 2);
    throw error;
  }
}

/** Opens the database the settings name, makes the change there and closes it again. */
async function changeDirectly(
  options: { url: string; schema?: string } | { dataDir: string },
  config: ServerConfig,
  email: string,
  role: UserRole,
): Promise<RoleChange> {
  const database = openDatabase({ ...options, migrationsDir: config.migrationsDir });
  try {
    return await changeRoleByEmail(database.db, email, role, { operator: operator(), through: 'database' });
  } catch (error) {
    if (error instanceof RoleCommandError) throw new CommandFailure(error.message);
    const message = error instanceof Error ? error.message : String(error);
    if (/relation .*users.* does not exist/i.test(message)) {
      throw new CommandFailure(
        'The database has no accounts table yet: start the site once (npm start) so it is set up, then sign up.',
      );
    }
    throw error;
  } finally {
    await database.close();
  }
}

/** Asks the running server to make the change in its own process, signed with the server secret. */
async function changeThroughServer(
  server: RunningServerRecord,
  dataDir: string,
  email: string,
  role: UserRole,
): Promise<RoleChange> {
  const request = { email, role, issuedAt: Date.now(), operator: operator() };
  const address = `${server.siteUrl}/api/internal/user-role`;
  let answer: Response;
  try {
    answer = await fetch(address, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        [COMMAND_SIGNATURE_HEADER]: signRoleCommand(serverSecret(), request),
      },
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(SERVER_TIMEOUT_MS),
    });
  } catch (error) {
    const reason =
      error instanceof Error && error.name === 'TimeoutError'
        ? 'did not answer in 15 s'
        : 'cannot be reached';
    throw new CommandFailure(
      `The server holding ${dataDir} (pid ${String(server.pid)}) ${reason} at ${server.siteUrl}. ` +
        `If it is not running any more, delete ${path.join(dataDir, RUNNING_SERVER_FILE)} and try again.`,
    );
  }
  const body = (await answer.json().catch(() => ({}))) as { change?: RoleChange; error?: string };
  if (answer.ok && body.change !== undefined) return body.change;
  throw new CommandFailure(body.error ?? `The server answered ${String(answer.status)}.`);
}

async function main(): Promise<void> {
  const { email, role } = readArguments();
  const config = readConfig();
  if (config.databaseUrl !== undefined) {
    const schema = databaseSchema();
    const change = await changeDirectly(
      { url: config.databaseUrl, ...(schema === undefined ? {} : { schema }) },
      config,
      email,
      role,
    );
    console.log(describeRoleChange(change));
    return;
  }
  if (config.dataDir === 'memory://') {
    throw new CommandFailure(
      'DATA_DIR=memory:// is a database only its own server process sees: there is nothing to change from here.',
    );
  }
  const server = findRunningServer(config.dataDir);
  if (server !== null) {
    const change = await changeThroughServer(server, config.dataDir, email, role);
    console.log(`${describeRoleChange(change)} (through the running server, pid ${String(server.pid)})`);
    return;
  }
  const pgliteDir = path.join(config.dataDir, 'pglite');
  if (!existsSync(path.join(pgliteDir, 'PG_VERSION'))) {
    throw new CommandFailure(
      `There is no database in ${pgliteDir}: start the site once (npm start) and sign up, or set DATA_DIR or DATABASE_URL.`,
    );
  }
  console.log(describeRoleChange(await changeDirectly({ dataDir: pgliteDir }, config, email, role)));
}

try {
  await main();
} catch (error) {
  if (error instanceof CommandFailure) {
    console.error(error.message);
    process.exit(error.exitCode);
  }
  console.error(`user:role failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
