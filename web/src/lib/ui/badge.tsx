// badge.tsx: the small labels of the app: a session's status pill and plain count/kind badges.
// Status words and tones come from format.ts, so the list and the session header always agree.
import type { ReactNode } from 'react';
import type { SessionStatus } from '@tether/shared';
import { describeStatus } from '../format.ts';

export function StatusPill({ status }: { status: SessionStatus }) {
  const { label, tone } = describeStatus(status);
  return (
    <span className={`pill pill-${tone}`} data-status={status}>
      <span className="pill-dot" aria-hidden="true" />
      {label}
    </span>
  );
}

export function Badge({
  children,
  tone = 'plain',
  title,
  label,
}: {
  children: ReactNode;
  tone?: 'plain' | 'attention' | 'accent' | 'danger';
  title?: string;
  /** Accessible text when the visible text is terse ("2" → "2 waiting for you"). */
  label?: string;
}) {
  return (
    <span className={`badge badge-${tone}`} title={title} aria-label={label} role={label ? 'img' : undefined}>
      {children}
    </span>
  );
}

export function Spinner({ size = 16, label }: { size?: number; label?: string }) {
  return (
    <span
      className="spinner"
      style={{ width: size, height: size }}
      role={label ? 'status' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    />
  );
}
