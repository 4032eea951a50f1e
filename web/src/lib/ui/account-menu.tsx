// account-menu.tsx: who is signed in (the namespace) and the Log out action, behind one button.
// A small disclosure menu: Escape or a click outside closes it, focus returns to the button.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { getLogin, logout } from '../hub.ts';
import { IconLogout } from './icons.tsx';

/** Logging out changes the stored login; the route guard sees that and shows the login screen. */
/** `extra`: more menu items from outside lib (the notifications switch lives with the service worker). */
export function AccountMenu({ extra }: { extra?: ReactNode } = {}) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const namespace = getLogin()?.namespace ?? '';

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div className="account" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="icon-button account-button"
        aria-label="Account"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((v) => !v)}
      >
        <span className="avatar" aria-hidden="true">
          {namespace.slice(0, 1).toUpperCase() || '?'}
        </span>
      </button>
      {open ? (
        <div className="menu" id={menuId} role="menu" aria-label="Account">
          <div className="menu-caption">
            Signed in to <strong>{namespace}</strong>
          </div>
          {extra}
          <button
            type="button"
            role="menuitem"
            className="menu-item menu-item-danger"
            onClick={() => {
              setOpen(false);
              logout();
            }}
          >
            <IconLogout size={18} />
            Log out
          </button>
        </div>
      ) : null}
    </div>
  );
}
