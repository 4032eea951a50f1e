// schedules-page.tsx: `/schedules`: the list of the namespace's schedules and the editor (new or
// an existing one). Loaded with its route: most visits never open it.
import { useState } from 'react';
import type { Schedule } from '@tether/shared';
import { useMachines, useSessions } from '../../lib/queries.ts';
import { IconPlus } from '../../lib/ui/icons.tsx';
import { BackHeader } from '../../lib/ui/back-header.tsx';
import { ScheduleEditor } from './schedule-editor.tsx';
import { ScheduleError, ScheduleList } from './schedule-list.tsx';
import { useSchedules } from './use-schedules.ts';
import { UnattendedGuardPanel } from './unattended-guard.tsx';
import './schedules.css';

type Editing = { kind: 'none' } | { kind: 'new' } | { kind: 'edit'; schedule: Schedule };

export function SchedulesPage() {
  const { data: machines = [] } = useMachines();
  const { data: sessions = [] } = useSessions();
  const { schedules, error } = useSchedules();
  const [editing, setEditing] = useState<Editing>({ kind: 'none' });
  return (
    <div className="session-screen schedules-screen">
      <BackHeader title="Schedules">
        {editing.kind === 'none' ? (
          <button type="button" className="button button-primary schedule-new" onClick={() => setEditing({ kind: 'new' })}>
            <IconPlus size={18} />
            New schedule
          </button>
        ) : null}
      </BackHeader>
      <div className="schedules-body">
        {editing.kind !== 'none' ? (
          <section aria-label={editing.kind === 'new' ? 'New schedule' : 'Edit schedule'}>
            <h2 className="schedule-title">{editing.kind === 'new' ? 'New schedule' : 'Edit schedule'}</h2>
            <ScheduleEditor editing={editing.kind === 'edit' ? editing.schedule : null} sessions={sessions} machines={machines} onDone={() => setEditing({ kind: 'none' })} />
          </section>
        ) : null}
        {editing.kind === 'none' ? <UnattendedGuardPanel /> : null}
        <ScheduleError error={error} />
        {schedules && editing.kind === 'none' ? <ScheduleList schedules={schedules} sessions={sessions} machines={machines} onEdit={(schedule) => setEditing({ kind: 'edit', schedule })} /> : null}
      </div>
    </div>
  );
}
