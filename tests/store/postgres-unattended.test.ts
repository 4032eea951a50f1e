// postgres-unattended.test.ts: the guard on unattended work (hub/src/unattended/unattended.contract.ts)
// against a real hub on PostgreSQL, a fresh database per test of one throwaway cluster.
import { afterAll } from 'vitest';
import { runUnattendedHubContract } from '../../hub/src/unattended/unattended.contract.ts';
import { startPostgres, type PostgresHandle } from '../harness/postgres.ts';

let cluster: Promise<PostgresHandle> | null = null;
afterAll(async () => {
  if (cluster) await (await cluster).stop();
});

runUnattendedHubContract({
  name: 'PostgreSQL',
  database: async () => {
    cluster ??= startPostgres();
    return (await cluster).createDatabase();
  },
});
