import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import { and, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsApp } from '../../src/server/app/accounts-app.ts';
import { recordRunningServer } from '../../src/server/app/running-server.ts';
import {
  COMMAND_SIGNATURE_HEADER,
  signRoleCommand,
  type RoleCommandRequest,
} from '../../src/server/auth/command-signature.ts';
import { serverSecret } from '../../src/server/auth/crypto.ts';
import { closeDatabase, getDatabase, openDatabase, type Db } from '../../src/server/db/client.ts';
import { auditLog, users } from '../../src/server/db/schema.ts';
import {
  LOCAL_ONLY_MESSAGE,
  SIGNATURE_EXPIRED_MESSAGE,
  SIGNATURE_MISMATCH_MESSAGE,
  SIGNATURE_MISSING_MESSAGE,
  SIGNATURE_REUSED_MESSAGE,
} from '../../src/server/routes/internal.ts';
import { createUser, setRole } from '../../src/server/services/users.ts';
import { accessTokenFor } from './accounts-app.ts';

const migrationsDir = path.resolve('db/migrations');
const COMMAND_TIMEOUT_MS = 90_000;

interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `npm run user:role -- …` as an operator would, in a process of its own. */
function userRole(args: string[], env: Record<string, string | undefined>): Promise<CommandResult> {
  const base: Record<string, string | undefined> = { ...process.env };
  for (const name of ['DATABASE_URL', 'DATABASE_SCHEMA', 'DATA_DIR']) base[name] = undefined;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['scripts/user-role.ts', ...args],
      { env: { ...base, ...env }, timeout: COMMAND_TIMEOUT_MS },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout: stdout.trim(), stderr: stderr.trim() });
      },
    );
  });
}

async function roleOf(db: Db, email: string): Promise<string | undefined> {
  const [row] = await db.select({ role: users.role }).from(users).where(eq(users.email, email));
  return row?.role;
}

async function roleChanges(db: Db, userId: string) {
  return db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetUserId, userId), eq(auditLog.action, 'role_change')));
}

/** A process id that no process has any more. */
function endedPid(): number {
  const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(ended.stdout.toString());
}

describe('npm run user:role on the embedded database, with no server running', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'user-role-stopped-'));
  const pgliteDir = path.join(dataDir, 'pglite');
  let adaId = '';

  /** Opens the data directory's database the way the server would, while no command holds it. */
  async function withDatabase<T>(work: (db: Db) => Promise<T>): Promise<T> {
    const database = openDatabase({ dataDir: pgliteDir, migrationsDir });
    try {
      return await work(database.db);
    } finally {
      await database.close();
    }
  }

  beforeAll(async () => {
    const database = openDatabase({ dataDir: pgliteDir, migrationsDir });
    await database.migrate();
    adaId = (await createUser(database.db, { firebaseUid: 'uid-ada', email: 'Ada@Example.com' })).id;
    await database.close();
  });

  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'makes an account admin, says what changed and leaves an audit entry naming the command',
    async () => {
      const result = await userRole(['ada@example.com', 'admin'], { DATA_DIR: dataDir });
      expect(result).toMatchObject({ code: 0, stdout: 'Ada@Example.com: user → admin' });
      await withDatabase(async (db) => {
        expect(await roleOf(db, 'Ada@Example.com')).toBe('admin');
        const entries = await roleChanges(db, adaId);
        expect(entries).toHaveLength(1);
        expect(entries[0]).toMatchObject({
          actorUserId: null,
          details: { via: 'command', through: 'database', from: 'user', to: 'admin' },
        });
        expect(entries[0]?.details).toHaveProperty('operator', expect.any(String));
      });
    },
    COMMAND_TIMEOUT_MS,
  );

  it(
    'says so and records nothing when the account already has the role',
    async () => {
      const result = await userRole(['ADA@example.com', 'admin'], { DATA_DIR: dataDir });
      expect(result).toMatchObject({ code: 0, stdout: 'Ada@Example.com is already admin; nothing changed.' });
      await withDatabase(async (db) => {
        expect(await roleChanges(db, adaId)).toHaveLength(1);
      });
    },
    COMMAND_TIMEOUT_MS,
  );

  it(
    'opens the database itself when the recorded server has ended (a crash leaves its record behind)',
    async () => {
      const record = path.join(dataDir, 'server.json');
      writeFileSync(
        record,
        JSON.stringify({ pid: endedPid(), siteUrl: 'http://127.0.0.1:9', startedAt: '' }),
      );
      const result = await userRole(['ada@example.com', 'analyst'], { DATA_DIR: dataDir });
      expect(result).toMatchObject({ code: 0, stdout: 'Ada@Example.com: admin → analyst' });
      rmSync(record, { force: true });
    },
    COMMAND_TIMEOUT_MS,
  );

  it(
    'refuses a role that does not exist, naming the roles there are, as a usage error',
    async () => {
      const result = await userRole(['ada@example.com', 'superuser'], { DATA_DIR: dataDir });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        'Unknown role "superuser": choose admin, analyst or user (admins act in the console, analysts read it).',
      );
      expect(result.stderr).toContain('usage: npm run user:role -- <email> admin|analyst|user');
    },
    COMMAND_TIMEOUT_MS,
  );

  it(
    'refuses an address no account has, and a missing argument',
    async () => {
      const unknown = await userRole(['nobody@example.com', 'admin'], { DATA_DIR: dataDir });
      expect(unknown).toMatchObject({ code: 1, stderr: 'No account has the address nobody@example.com.' });
      const missing = await userRole(['ada@example.com'], { DATA_DIR: dataDir });
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('Give an address and a role.');
    },
    COMMAND_TIMEOUT_MS,
  );

  it(
    'says where to start when the data directory holds no database',
    async () => {
      const empty = mkdtempSync(path.join(tmpdir(), 'user-role-empty-'));
      const result = await userRole(['ada@example.com', 'admin'], { DATA_DIR: empty });
      rmSync(empty, { recursive: true, force: true });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `There is no database in ${path.join(empty, 'pglite')}: start the site once (npm start) and sign up, or set DATA_DIR or DATABASE_URL.`,
      );
    },
    COMMAND_TIMEOUT_MS,
  );
});

describe('npm run user:role while a server holds the embedded database', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'user-role-running-'));
  const saved = { ...process.env };
  let server: Server;
  let siteUrl = '';
  let forgetRecord: () => void = () => undefined;
  let db: Db;
  let graceId = '';

  /** What the command sends, signed with this server's secret unless told otherwise. */
  function signed(
    request: RoleCommandRequest,
    signature = signRoleCommand(serverSecret(), request),
  ): RequestInit {
    return {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', [COMMAND_SIGNATURE_HEADER]: signature },
      body: JSON.stringify(request),
    };
  }

  function request(email: string, role: string, issuedAt = Date.now()): RoleCommandRequest {
    return { email, role, issuedAt, operator: 'tester' };
  }

  beforeAll(async () => {
    process.env.DATA_DIR = dataDir;
    delete process.env.DATABASE_URL;
    delete process.env.DATABASE_SCHEMA;
    db = (await getDatabase()).db;
    graceId = (await createUser(db, { firebaseUid: 'uid-grace', email: 'grace@example.com' })).id;
    await createUser(db, { firebaseUid: 'uid-alan', email: 'alan@example.com' });
    const site = new Hono().route('/api', accountsApp);
    server = createAdaptorServer({ fetch: site.fetch }) as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
    forgetRecord = recordRunningServer(dataDir, siteUrl);
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await closeDatabase();
    forgetRecord();
    process.env = { ...saved };
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'makes the change in the server’s process, audited as coming through the server',
    async () => {
      const result = await userRole(['grace@example.com', 'admin'], { DATA_DIR: dataDir });
      expect(result).toMatchObject({
        code: 0,
        stdout: `grace@example.com: user → admin (through the running server, pid ${String(process.pid)})`,
      });
      expect(await roleOf(db, 'grace@example.com')).toBe('admin');
      const entries = await roleChanges(db, graceId);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        actorUserId: null,
        details: { via: 'command', through: 'server', from: 'user', to: 'admin' },
      });
    },
    COMMAND_TIMEOUT_MS,
  );

  it(
    'passes on the server’s refusal of an address no account has',
    async () => {
      const result = await userRole(['nobody@example.com', 'analyst'], { DATA_DIR: dataDir });
      expect(result).toMatchObject({ code: 1, stderr: 'No account has the address nobody@example.com.' });
    },
    COMMAND_TIMEOUT_MS,
  );

  it('refuses a call without a signature, with a wrong one, an old one or a replayed one (403)', async () => {
    const address = `${siteUrl}/api/internal/user-role`;
    const unsigned = await fetch(address, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(request('alan@example.com', 'admin')),
    });
    expect(unsigned.status).toBe(403);
    expect(await unsigned.json()).toEqual({ error: SIGNATURE_MISSING_MESSAGE });

    const forged = signRoleCommand(randomBytes(32).toString('hex'), request('alan@example.com', 'admin'));
    const wrong = await fetch(address, signed(request('alan@example.com', 'admin'), forged));
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toEqual({ error: SIGNATURE_MISMATCH_MESSAGE });

    const stale = await fetch(address, signed(request('alan@example.com', 'admin', Date.now() - 5 * 60_000)));
    expect(stale.status).toBe(403);
    expect(await stale.json()).toEqual({ error: SIGNATURE_EXPIRED_MESSAGE });

    // A signature over one role does not carry over to another.
    const good = request('alan@example.com', 'analyst');
    const swapped = { ...good, role: 'admin' };
    const tampered = await fetch(address, {
      ...signed(good),
      body: JSON.stringify(swapped),
    });
    expect(tampered.status).toBe(403);
    expect(await tampered.json()).toEqual({ error: SIGNATURE_MISMATCH_MESSAGE });

    const once = signed(good);
    const first = await fetch(address, once);
    expect(first.status).toBe(200);
    const replayed = await fetch(address, once);
    expect(replayed.status).toBe(403);
    expect(await replayed.json()).toEqual({ error: SIGNATURE_REUSED_MESSAGE });
    expect(await roleOf(db, 'alan@example.com')).toBe('analyst');
  });

  it('is no API call for anyone else: a signed-in administrator, a proxied or a remote request is refused', async () => {
    const address = `${siteUrl}/api/internal/user-role`;
    const admin = await createUser(db, { firebaseUid: 'uid-root', email: 'root@example.com' });
    await setRole(db, admin.id, 'admin', null);
    const token = await accessTokenFor(db, admin.id, 'free');
    const asAdmin = await fetch(address, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(request('root@example.com', 'user')),
    });
    expect(asAdmin.status).toBe(403);
    expect(await asAdmin.json()).toEqual({ error: SIGNATURE_MISSING_MESSAGE });

    const proxied = signed(request('root@example.com', 'user'));
    const viaProxy = await fetch(address, {
      ...proxied,
      headers: { ...(proxied.headers as Record<string, string>), 'X-Forwarded-For': '203.0.113.7' },
    });
    expect(viaProxy.status).toBe(403);
    expect(await viaProxy.json()).toEqual({ error: LOCAL_ONLY_MESSAGE });

    // Without a socket on the loopback (here: no socket at all) a good signature is not enough.
    const remote = await accountsApp.request(
      '/internal/user-role',
      signed(request('root@example.com', 'user')),
    );
    expect(remote.status).toBe(403);
    expect(await remote.json()).toEqual({ error: LOCAL_ONLY_MESSAGE });
    expect(await roleOf(db, 'root@example.com')).toBe('admin');
  });

  it(
    'tells the operator what to do when the recorded server does not answer',
    async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const deadUrl = `http://127.0.0.1:${String((closed.address() as AddressInfo).port)}`;
      await new Promise((resolve) => closed.close(resolve));
      recordRunningServer(dataDir, deadUrl);
      try {
        const result = await userRole(['grace@example.com', 'user'], { DATA_DIR: dataDir });
        expect(result.code).toBe(1);
        expect(result.stderr).toBe(
          `The server holding ${dataDir} (pid ${String(process.pid)}) cannot be reached at ${deadUrl}. If it is not running any more, delete ${path.join(dataDir, 'server.json')} and try again.`,
        );
      } finally {
        forgetRecord = recordRunningServer(dataDir, siteUrl);
      }
      expect(await roleOf(db, 'grace@example.com')).toBe('admin');
    },
    COMMAND_TIMEOUT_MS,
  );
});

const postgresUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(postgresUrl === undefined || postgresUrl === '')('npm run user:role on PostgreSQL', () => {
  const url = postgresUrl ?? '';
  const schema = `test_${randomBytes(6).toString('hex')}`;
  let database: ReturnType<typeof openDatabase>;
  let userId = '';

  beforeAll(async () => {
    const admin = postgres(url, { max: 1, onnotice: () => undefined });
    await admin.unsafe(`create schema ${schema}`);
    await admin.end();
    database = openDatabase({ url, schema, migrationsDir });
    await database.migrate();
    userId = (await createUser(database.db, { firebaseUid: 'uid-pg', email: 'edsger@example.com' })).id;
  });

  afterAll(async () => {
    await database.close();
    const cleanup = postgres(url, { max: 1, onnotice: () => undefined });
    await cleanup.unsafe(`drop schema ${schema} cascade`);
    await cleanup.end();
  });

  it(
    'changes the role directly in the database DATABASE_URL names, audited as the command’s',
    async () => {
      const result = await userRole(['edsger@example.com', 'analyst'], {
        DATABASE_URL: url,
        DATABASE_SCHEMA: schema,
      });
      expect(result).toMatchObject({ code: 0, stdout: 'edsger@example.com: user → analyst' });
      expect(await roleOf(database.db, 'edsger@example.com')).toBe('analyst');
      const entries = await roleChanges(database.db, userId);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        actorUserId: null,
        details: { via: 'command', through: 'database', from: 'user', to: 'analyst' },
      });
    },
    COMMAND_TIMEOUT_MS,
  );
});
