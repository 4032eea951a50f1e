// find-postgres.test.ts: Find over REST (hub/src/find/find.contract.ts) on a hub whose store is
// PostgreSQL: the chat's LIKE is ILIKE there, with the same escapes.
import { afterAll, beforeAll } from 'vitest';
import { hubUnderTest } from '../../hub/src/testing/hub-under-test.ts';
import { runFindHubContract } from '../../hub/src/find/find.contract.ts';
import { startPostgres, type PostgresHandle } from '../harness/postgres.ts';

let cluster: PostgresHandle;
/** Read when each test's hub starts (after beforeAll has a database to give it). */
const config: { databaseUrl?: string } = {};
beforeAll(async () => {
  cluster = await startPostgres();
  config.databaseUrl = await cluster.createDatabase();
});
afterAll(async () => {
  await cluster?.stop();
});

runFindHubContract(hubUnderTest({ home: 'tether-find-pg-', ackTimeoutMs: 10_000, config }), 'postgres');
