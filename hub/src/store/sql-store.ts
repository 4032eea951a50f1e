// sql-store.ts: the one Store both databases run: the queries of queries/ (one set, one per concept)
// over a SqlDriver (sqlite/sqlite-store.ts or postgres/postgres-store.ts), on the schema of schema/.
import type { Store } from './store.ts';
import type { SqlDriver } from './sql/driver.ts';
import { tokenQueries } from './queries/tokens.ts';
import { pairCodeQueries } from './queries/pair-codes.ts';
import { finalScreenQueries } from './queries/final-screens.ts';
import { sessionQueries } from './queries/sessions.ts';
import { sessionLimitQueries } from './queries/session-limits.ts';
import { messageQueries } from './queries/messages.ts';
import { machineQueries } from './queries/machines.ts';
import { approvalQueries } from './queries/approvals.ts';
import { promptQueries } from './queries/prompts.ts';
import { attachmentQueries } from './queries/attachments.ts';
import { sessionCommandQueries } from './queries/session-commands.ts';
import { reviewQueries } from './queries/reviews.ts';
import { outsideQueries } from './queries/outside.ts';
import { scheduleQueries } from './queries/schedules.ts';
import { projectRuleQueries } from './queries/project-rules.ts';
import { unattendedQueries } from './queries/unattended.ts';

export function createSqlStore(db: SqlDriver): Store {
  return {
    ...tokenQueries(db),
    ...pairCodeQueries(db),
    ...finalScreenQueries(db),
    ...sessionQueries(db),
    ...sessionLimitQueries(db),
    ...messageQueries(db),
    ...machineQueries(db),
    ...approvalQueries(db),
    ...promptQueries(db),
    ...attachmentQueries(db),
    ...sessionCommandQueries(db),
    ...reviewQueries(db),
    ...outsideQueries(db),
    ...scheduleQueries(db),
    ...projectRuleQueries(db),
    ...unattendedQueries(db),
    close: () => db.close(),
  };
}
