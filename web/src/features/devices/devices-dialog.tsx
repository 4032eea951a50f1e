// devices-dialog.tsx: the namespace's paired devices in a modal dialog (role "dialog": a list to look
// at, not a question). Each row: the device and browser, when it was paired and last used; this
// browser marked "This device". Sign out: this device through lib/hub.ts logout (the hub revokes it,
// then this browser forgets everything and starts at the login screen); another device, only for
// the namespace's owner, through DELETE /api/devices/:id (its sockets and notifications end at once).
import { useEffect, useState } from 'react';
import type { DeviceInfo, DeviceList } from '@tether/shared';
import { devicesApi, logout } from '../../lib/hub.ts';
import { formatRelativeTime } from '../../lib/format.ts';
import { useModal } from '../../lib/ui/use-modal.ts';
import { Spinner } from '../../lib/ui/badge.tsx';
import { deviceName } from './device-name.ts';
import '../lifecycle/lifecycle.css';
import './devices.css';

type Load = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'loaded'; list: DeviceList };

const message = (failure: unknown) => (failure instanceof Error ? failure.message : String(failure));
const pairedOn = (at: number) => new Date(at).toLocaleDateString(undefined, { month: 'short', day: 'numeric', year: 'numeric' });

export function DevicesDialog({ onClose }: { onClose: () => void }) {
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  /** The device being signed out, and what went wrong with the last try. */
  const [leaving, setLeaving] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { titleId, textId, props } = useModal({ busy: leaving !== null, onClose, role: 'dialog' });

  useEffect(() => {
    let alive = true;
    devicesApi.list().then(
      (list) => alive && setLoad({ kind: 'loaded', list }),
      (failure: unknown) => alive && setLoad({ kind: 'failed', message: message(failure) }),
    );
    return () => {
      alive = false;
    };
  }, []);

  const signOut = async (device: DeviceInfo) => {
    setError(null);
    setLeaving(device.id);
    try {
      if (device.current) return await logout(); // the page starts over at the login screen
      await devicesApi.revoke(device.id);
      setLoad((current) => (current.kind === 'loaded' ? { kind: 'loaded', list: { ...current.list, devices: current.list.devices.filter((d) => d.id !== device.id) } } : current));
    } catch (failure) {
      setError(`Couldn't sign out ${deviceName(device.label)}: ${message(failure)}`);
    } finally {
      setLeaving(null);
    }
  };

  const list = load.kind === 'loaded' ? load.list : null;
  return (
    <dialog {...props} className="confirm-dialog devices-dialog">
      <h2 id={titleId} className="confirm-dialog-title">
        Devices
      </h2>
      <div id={textId} className="confirm-dialog-text">
        <p>
          Phones and browsers paired with this hub. Each stays signed in until it signs out, is signed out here, or goes unused
          {list ? ` for ${list.idleDays} days` : ' for a while'}.
        </p>
      </div>
      {load.kind === 'loading' ? (
        <p className="devices-status" role="status">
          <Spinner size={16} /> Loading devices…
        </p>
      ) : load.kind === 'failed' ? (
        <p className="confirm-dialog-error" role="alert">
          Couldn't load the devices: {load.message}
        </p>
      ) : list && list.devices.length === 0 ? (
        <p className="devices-status">No paired devices. Pair a phone with the QR code of tether pair.</p>
      ) : list ? (
        <ul className="devices-list" aria-label="Paired devices">
          {list.devices.map((device) => (
            <li key={device.id} className="devices-row">
              <div className="devices-row-text">
                <span className="devices-name">
                  {deviceName(device.label)}
                  {device.current ? <span className="devices-this">This device</span> : null}
                </span>
                <span className="devices-meta">
                  Paired {pairedOn(device.createdAt)} · {device.lastUsedAt === null ? 'not used yet' : `last used ${formatRelativeTime(device.lastUsedAt)}`}
                </span>
              </div>
              {device.current || list.canRevokeOthers ? (
                <button
                  type="button"
                  className="button devices-sign-out"
                  disabled={leaving !== null}
                  aria-label={device.current ? 'Sign out this device' : `Sign out ${deviceName(device.label)}`}
                  onClick={() => void signOut(device)}
                >
                  {leaving === device.id ? <Spinner size={14} /> : null}
                  Sign out
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {error ? (
        <p className="confirm-dialog-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="confirm-dialog-actions">
        <button type="button" className="button" autoFocus disabled={leaving !== null} onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}
