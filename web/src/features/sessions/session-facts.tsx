// session-facts.tsx: the runner's facts about a session that change how far the phone can trust
// what it sees: "Bypass" (the user started claude with permission checks off, so nothing will ask
// here), "Adopted" (a background session it attached to: no hook approvals) and who is in control right now (the desk terminal, or a remote client such as this phone).
import type { Session } from '@tether/shared';
import { isFinalStatus } from '@tether/shared/wire';
import { Badge } from '../../lib/ui/badge.tsx';
import { IconSvg } from '../../lib/ui/icon-svg.tsx';
import { InfoPopover } from './disclosure.tsx';
import { FactText, type FactKey } from './fact-text.tsx';
// The info and history panels are the model panel's look with their own size: its sheet comes first.
import './model-picker.css';
import './session-facts.css';

const BYPASS_TITLE = 'Permission checks are off';

/** In the session list: a plain warning badge (the whole row is a link, so no button inside). */
export function BypassBadge() {
  return (
    <Badge tone="danger" title={`${BYPASS_TITLE}: Claude runs tools without asking`} label="Bypass: permission checks are off">
      <WarningMark />
      Bypass
    </Badge>
  );
}

/** In the session header: the same badge, which explains itself on tap. */
export function BypassChip() {
  return (
    <InfoPopover label="Bypass: permission checks are off. What this means" chip={<><WarningMark />Bypass</>} className="badge badge-danger chip-button" title={BYPASS_TITLE}>
      <FactText fact="bypass" />
    </InfoPopover>
  );
}

/** A session tether attached to rather than started (capabilities.adopted): what it lacks, on tap.
 *  A phone's header row has room for "Adopted" only; the rest is in its name and its popover. */
export function AdoptedChip({ note }: { note: string }) {
  return (
    <InfoPopover label={`${note}. What this means`} chip={<>Adopted<span className="chip-more">: no hook approvals</span></>} className="badge chip-button adopted-chip" title={note}>
      <FactText fact="adopted" />
    </InfoPopover>
  );
}

function WarningMark() {
  return (
    <IconSvg size={12} strokeWidth={2.6}>
      <path d="M12 3l10 18H2L12 3z" />
      <path d="M12 10v5M12 18h.01" />
    </IconSvg>
  );
}

type Control = { key: FactKey; short: string; title: string };

/** Words for `controller` × `deskAttached`. Null when there is nothing worth saying (no desk, nobody typed yet). */
export function describeControl(session: Pick<Session, 'controller' | 'deskAttached' | 'launchKind' | 'status'>): Control | null {
  if (isFinalStatus(session.status)) return null;
  const desk = session.deskAttached;
  if (session.controller === 'desk' && desk) {
    return {
      key: 'desk',
      short: 'At the desk',
      title: 'Someone is typing at the desk',
    };
  }
  if (session.controller === 'desk') {
    return {
      key: 'desk-away',
      short: 'Desk (left)',
      title: 'The desk drove last, and has left',
    };
  }
  if (session.controller === 'remote') {
    return {
      key: desk ? 'remote-desk' : 'remote',
      short: 'Remote',
      title: 'Driven remotely',
    };
  }
  if (desk) {
    return {
      key: 'desk-attached',
      short: 'Desk attached',
      title: 'A desk terminal is attached',
    };
  }
  return null;
}

export function ControlChip({ session }: { session: Session }) {
  const control = describeControl(session);
  if (!control) return null;
  return (
    <InfoPopover
      label={`In control: ${control.short}. Details`}
      chip={
        <>
          <span className="control-dot" aria-hidden="true" />
          {control.short}
        </>
      }
      className={`control-chip chip-button control-${control.key}`}
      title={control.title}
    >
      <FactText fact={control.key} />
    </InfoPopover>
  );
}
