// unattended.test.ts: the guard on unattended work against a real hub on SQLite (the suite is
// unattended.contract.ts; PostgreSQL runs it in tests/store/postgres-unattended.test.ts).
import { runUnattendedHubContract } from './unattended.contract.ts';

runUnattendedHubContract({ name: 'SQLite' });
