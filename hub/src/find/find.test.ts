// find.test.ts: Find over REST on a real hub with SQLite (find.contract.ts; PostgreSQL:
// tests/store/find-postgres.test.ts).
import { hubUnderTest } from '../testing/hub-under-test.ts';
import { runFindHubContract } from './find.contract.ts';

runFindHubContract(hubUnderTest({ home: 'tether-find-', ackTimeoutMs: 10_000 }), 'sqlite');
