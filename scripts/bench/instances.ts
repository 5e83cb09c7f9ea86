import { randomBytes, randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/server/db/client.ts';
import { pricePlans, users } from '../../src/server/db/schema.ts';
import { createApiKey } from '../../src/server/services/api-keys.ts';
import { readConfig } from '../../src/server/app/config.ts';
import { freePort } from '../../tests/integration/free-port.ts';
import { startAuthEmulator } from '../emulator.ts';
import { dropInstanceSchema, InstanceProcess, prepareInstanceSchema } from '../instance-process.ts';
import { runLoadInChild, type LoadResult } from './load-generator.ts';
import { processTreeCpuMs } from './machine.ts';
import { RoundRobinProxy } from './round-robin-proxy.ts';
import { fixed, formatTable } from './stats.ts';

/** The request every round sends: a live quote, the data API's most frequent call. */
export const INSTANCES_TARGET = '/stable/quote?symbol=AAPL';

/** One round: the data API's throughput with this many instances behind the balancer. */
export interface InstancesRound {
  instances: number;
  load: LoadResult;
  /** CPU of the instances together while loaded, in percent of one core. */
  instancesCpuPercent: number;
  /** CPU of the balancer (this process), in percent of one core. */
  balancerCpuPercent: number;
}

export interface InstancesResult {
  /** Why nothing was measured (no PostgreSQL), if so. */
  skipped?: string;
  rounds: InstancesRound[];
  connections: number;
  durationMs: number;
}

export interface InstancesOptions {
  postgresUrl: string | undefined;
  redisUrl?: string;
  connections?: number;
  durationMs?: number;
  warmupMs?: number;
}

/**
 * The data API's throughput with one and then two `serve:data-api` instances behind the round-robin
 * balancer, on a PostgreSQL schema of its own (test-scale demo data) and Redis, with the Auth emulator the
 * instances share: a figure, not a target, since on a small machine the instances, the balancer and the
 * load generator share the same cores. Needs PostgreSQL; Redis defaults to the local one.
 */
export async function measureInstances(options: InstancesOptions): Promise<InstancesResult> {
  const connections = options.connections ?? 50;
  const durationMs = options.durationMs ?? 10_000;
  const warmupMs = options.warmupMs ?? 2_000;
  const { postgresUrl } = options;
  if (postgresUrl === undefined) {
    return {
      skipped:
        'needs PostgreSQL (the instances share one database): set BENCH_DATABASE_URL, DATABASE_URL or TEST_DATABASE_URL',
      rounds: [],
      connections,
      durationMs,
    };
  }
  const schema = `bench_instances_${randomBytes(6).toString('hex')}`;
  const secret = `bench-instances-${randomBytes(16).toString('hex')}`;
  const projectId = readConfig().firebaseProjectId;
  const emulator = await startAuthEmulator({ port: await freePort(), projectId, quiet: true });
  const env: Record<string, string> = {
    DATABASE_URL: postgresUrl,
    DATABASE_SCHEMA: schema,
    REDIS_URL: options.redisUrl ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    APP_SECRET: secret,
    FIREBASE_PROJECT_ID: projectId,
    FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
    SHUTDOWN_DRAIN_MS: '0',
    HOST: '127.0.0.1',
  };
  const instances: InstanceProcess[] = [];
  try {
    await prepareInstanceSchema(env);
    const database = openDatabase({
      url: postgresUrl,
      schema,
      migrationsDir: path.resolve('db/migrations'),
    });
    let key: string;
    try {
      const code = 'bench-instances';
      await database.db.insert(pricePlans).values({
        code,
        name: 'Instances benchmark',
        planType: 'commercial',
        billingInterval: 'month',
        priceCents: 0,
        callsPerMinute: null,
        callsPerDay: null,
        dataTier: 4,
        historyYears: null,
        active: false,
      });
      const id = randomUUID();
      const [user] = await database.db
        .insert(users)
        .values({
          firebaseUid: `bench-${id}`,
          email: `${id}@example.com`,
          username: `bench-${id.slice(0, 8)}`,
          planCode: code,
          emailVerified: true,
        })
        .returning({ id: users.id });
      const issued = await createApiKey(database.db, user?.id ?? '', { secret });
      if (issued === null) throw new Error('no key was issued');
      key = issued.key;
    } finally {
      await database.close();
    }
    for (const port of [await freePort(), await freePort()])
      instances.push(new InstanceProcess('data-api', port, env));
    await Promise.all(instances.map((instance) => instance.start()));

    const rounds: InstancesRound[] = [];
    for (const count of [1, 2]) {
      const serving = instances.slice(0, count);
      const balancer = new RoundRobinProxy(
        serving.map((instance) => instance.port),
        '/readyz',
        { keepAlive: true },
      );
      const url = new URL(await balancer.start());
      try {
        const deadline = Date.now() + 10_000;
        while (!balancer.readiness().every(Boolean)) {
          if (Date.now() > deadline) throw new Error('the balancer found an instance not ready for 10 s');
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const cpuBefore = serving.map((instance) => processTreeCpuMs(instance.child?.pid ?? 0));
        const ownBefore = process.cpuUsage();
        const started = performance.now();
        const load = await runLoadInChild({
          port: Number(url.port),
          path: `${INSTANCES_TARGET}&apikey=${key}`,
          connections,
          warmupMs,
          durationMs,
        });
        const wallMs = performance.now() - started;
        const instancesMs = serving.reduce(
          (sum, instance, index) =>
            sum + processTreeCpuMs(instance.child?.pid ?? 0) - (cpuBefore[index] ?? 0),
          0,
        );
        const own = process.cpuUsage(ownBefore);
        rounds.push({
          instances: count,
          load: { ...load, path: INSTANCES_TARGET },
          instancesCpuPercent: (instancesMs / wallMs) * 100,
          balancerCpuPercent: ((own.user + own.system) / 1000 / wallMs) * 100,
        });
      } finally {
        await balancer.stop();
      }
    }
    return { rounds, connections, durationMs };
  } finally {
    await Promise.allSettled(instances.map((instance) => instance.stop()));
    await emulator.stop();
    await dropInstanceSchema(env);
  }
}

/** The section's heading: what was measured, on what. */
export function instancesHeading(result: InstancesResult): string {
  return `Data API instances: ${INSTANCES_TARGET} through a round-robin balancer, one instance then two (npm run serve:data-api on PostgreSQL and Redis), ${String(result.connections)} connections, ${fixed(result.durationMs / 1000, 0)} s each, ${String(availableParallelism())} cores shared by the instances, the balancer and the load generator (a figure, no target)`;
}

export function instancesTable(result: InstancesResult): string {
  return formatTable([
    [
      'instances',
      'req/s',
      'p50 ms',
      'p99 ms',
      'instances CPU',
      'balancer CPU',
      'load CPU',
      'non-200',
      'errors',
    ],
    ...result.rounds.map((round) => [
      String(round.instances),
      fixed(round.load.requestsPerSecond, 0),
      fixed(round.load.latency.p50, 2),
      fixed(round.load.latency.p99, 2),
      `${fixed(round.instancesCpuPercent, 0)} %`,
      `${fixed(round.balancerCpuPercent, 0)} %`,
      `${fixed(round.load.generatorCpuPercent, 0)} %`,
      String(Object.values(round.load.otherStatuses).reduce((sum, n) => sum + n, 0)),
      String(round.load.errors),
    ]),
  ]);
}

/** What went wrong in a round, for the run's failures; undefined when every answer was a 200. */
export function instancesFailures(result: InstancesResult): string[] {
  return result.rounds.flatMap((round) => {
    const other = Object.entries(round.load.otherStatuses);
    if (round.load.errors === 0 && other.length === 0) return [];
    return [
      `${String(round.instances)} instance(s): ${String(round.load.errors)} errors, statuses ${JSON.stringify(Object.fromEntries(other))} ${round.load.errorSamples.join('; ')}`,
    ];
  });
}
