// composer-attachments.ts: the files waiting in the composer (picked, or pasted) until the message is
// sent. Each is uploaded to the hub at once (so Send only names ids) and shown with a preview; a
// removed one is deleted on the hub too. A photo over the hub's cap is shrunk first (JPEG, longest
// edge MAX_EDGE_PX), as a phone camera's photos often are.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ATTACHMENT_MAX_BYTES, cleanAttachmentName, MAX_ATTACHMENTS_PER_PROMPT } from '@tether/shared/wire';
import { hubApi } from '../../lib/hub.ts';

/** Longest edge of a shrunk photo: more than the Messages API keeps (it scales images down to
 *  about 1.6 megapixels), small enough to fit the cap at JPEG quality SHRINK_QUALITY. */
const MAX_EDGE_PX = 2048;
const SHRINK_QUALITY = 0.85;
const MIB = 1024 * 1024;

export type PendingAttachment = {
  key: string;
  name: string;
  size: number;
  /** An object URL for an image's thumbnail; null for other files. */
  preview: string | null;
  state: 'uploading' | 'ready' | 'failed';
  /** The hub's id once uploaded. */
  id: string | null;
  error: string | null;
};

async function shrinkPhoto(file: File): Promise<Blob | null> {
  if (!/^image\/(jpeg|png|webp)$/.test(file.type) || typeof createImageBitmap !== 'function') return null;
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, MAX_EDGE_PX / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    return await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', SHRINK_QUALITY));
  } catch {
    return null;
  }
}

function jpegName(name: string): string {
  return `${name.replace(/\.[A-Za-z0-9]{1,8}$/, '')}.jpg`;
}

export function useComposerAttachments(sessionId: string) {
  const [items, setItems] = useState<PendingAttachment[]>([]);
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const [notice, setNotice] = useState<string | null>(null);

  const update = (key: string, patch: Partial<PendingAttachment>) => setItems((list) => list.map((item) => (item.key === key ? { ...item, ...patch } : item)));

  const add = useCallback(
    (files: readonly File[]) => {
      setNotice(null);
      const room = MAX_ATTACHMENTS_PER_PROMPT - itemsRef.current.length;
      if (files.length > room) setNotice(`At most ${MAX_ATTACHMENTS_PER_PROMPT} files per message.`);
      for (const file of files.slice(0, Math.max(0, room))) {
        const key = crypto.randomUUID();
        const image = file.type.startsWith('image/');
        // Shown as the hub will store it: a bidi override in a picked file's name never shows.
        const item: PendingAttachment = { key, name: cleanAttachmentName(file.name) || (image ? 'pasted-image.png' : 'file'), size: file.size, preview: image ? URL.createObjectURL(file) : null, state: 'uploading', id: null, error: null };
        setItems((list) => [...list, item]);
        void (async () => {
          let data: Blob = file;
          let name = item.name;
          if (file.size > ATTACHMENT_MAX_BYTES) {
            const smaller = await shrinkPhoto(file);
            if (!smaller || smaller.size > ATTACHMENT_MAX_BYTES) {
              update(key, { state: 'failed', error: `Over ${ATTACHMENT_MAX_BYTES / MIB} MB` });
              return;
            }
            data = smaller;
            name = jpegName(name);
          }
          try {
            const { attachment } = await hubApi.uploadAttachment({ sessionId, name, data });
            // Removed while it uploaded: the hub's copy goes too.
            if (!itemsRef.current.some((i) => i.key === key)) {
              void hubApi.deleteAttachment({ sessionId, attachmentId: attachment.id }).catch(() => {});
              return;
            }
            update(key, { state: 'ready', id: attachment.id, name: attachment.name, size: attachment.size });
          } catch (error) {
            update(key, { state: 'failed', error: error instanceof Error ? error.message : String(error) });
          }
        })();
      }
    },
    [sessionId],
  );

  const remove = useCallback(
    (key: string) => {
      const item = itemsRef.current.find((i) => i.key === key);
      if (!item) return;
      if (item.preview) URL.revokeObjectURL(item.preview);
      if (item.id) void hubApi.deleteAttachment({ sessionId, attachmentId: item.id }).catch(() => {});
      setItems((list) => list.filter((i) => i.key !== key));
      setNotice(null);
    },
    [sessionId],
  );

  /** The ids to send, and the list emptied (the previews freed); the hub keeps the files. */
  const take = useCallback((): string[] => {
    const ids = itemsRef.current.flatMap((i) => (i.state === 'ready' && i.id ? [i.id] : []));
    for (const item of itemsRef.current) if (item.preview) URL.revokeObjectURL(item.preview);
    setItems([]);
    setNotice(null);
    return ids;
  }, []);

  useEffect(
    () => () => {
      for (const item of itemsRef.current) if (item.preview) URL.revokeObjectURL(item.preview);
    },
    [],
  );

  return {
    items,
    notice,
    add,
    remove,
    take,
    uploading: items.some((i) => i.state === 'uploading'),
    ready: items.filter((i) => i.state === 'ready').length,
  };
}
