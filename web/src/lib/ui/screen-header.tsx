// screen-header.tsx: the header of a screen that is not a session's (the new-session form, the
// schedules): back to the list, the screen's title, and whatever the screen adds on the right.
import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { IconBack } from './icons.tsx';

export function ScreenHeader(o: { title: string; children?: ReactNode }) {
  return (
    <header className="session-header">
      <Link to="/" className="icon-button back-button" aria-label="Back to sessions">
        <IconBack size={24} />
      </Link>
      <div className="session-header-text">
        <h1 className="session-header-title">{o.title}</h1>
      </div>
      {o.children}
    </header>
  );
}
