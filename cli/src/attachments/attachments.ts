// attachments.ts: a prompt's attachments, from the hub to the agent. The phone uploaded them to the hub
// (shared/src/attachments.ts); `prompt:deliver` names them; this room fetches their bytes with the
// runner's own hub credentials and hands the runner what claude takes:
//
//   PTY      → each file written under the session's private temp dir (0700 dir, 0600 files) and
//              the typed prompt `@/abs/path … text`, the way claude reads a file named at the desk
//              (claude turns an @path image into an image block of its request; checked with 2.1.197
//              and 2.1.331, tests/e2e/attachments.test.ts)
//   headless → stream-json content blocks: image (base64), document (PDF base64, or plain text)
//              and the text last
//   local images (headless Codex) → files written as for a PTY; the images' paths go as the agent's
//              own image inputs, the other files are named in the text
//
// Invariants: deliveries come out in the order they went in (a prompt with files never lets a
// later one overtake it); a file that cannot be fetched drops its prompt with the reason, it is
// never delivered without it; the temp dir goes with the session (stop()).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ATTACHMENT_DIR_PREFIX, ATTACHMENT_MAX_BYTES, isImageMediaType, type AttachmentMediaType, type AttachmentRef } from '@tether/shared';

/** A prompt as the hub delivers it. */
export type Delivery = { promptId: string; text: string; attachments: AttachmentRef[] };

/** One stream-json user content block (the Messages API's). */
export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } }
  | { type: 'document'; source: { type: 'base64'; media_type: 'application/pdf'; data: string } | { type: 'text'; media_type: 'text/plain'; data: string }; title?: string };

/** What a failed fetch waits before the one retry (the hub may be restarting). */
const RETRY_MS = 1_000;

/** The extension claude reads a file's kind by; the name the phone gave may have none or another. */
const EXTENSION: Record<AttachmentMediaType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
};

/** A file name that needs no quoting in `@path` (claude reads an @path up to the next space). */
export function safeFileName(options: { index: number; ref: AttachmentRef }): string {
  const stem = options.ref.name.replace(/\.[A-Za-z0-9]{1,8}$/, '').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '').slice(0, 60) || 'attachment';
  return `${options.index + 1}-${stem}.${EXTENSION[options.ref.mediaType]}`;
}

/** The prompt typed into claude's TUI: `@path` for each file, then the text (a space keeps the last
 *  path apart from anything claude might complete after it). */
export function ptyPromptText(options: { paths: string[]; text: string }): string {
  const refs = options.paths.map((path) => `@${path}`).join(' ');
  if (!refs) return options.text;
  return options.text.trim() ? `${refs} ${options.text}` : `${refs} `;
}

/** The stream-json content of a headless prompt: the files first, as claude's own pasted images are. */
export function headlessContent(options: { files: Array<{ ref: AttachmentRef; data: Uint8Array }>; text: string }): ContentBlock[] {
  const blocks: ContentBlock[] = options.files.map(({ ref, data }): ContentBlock => {
    const base64 = Buffer.from(data).toString('base64');
    if (isImageMediaType(ref.mediaType)) return { type: 'image', source: { type: 'base64', media_type: ref.mediaType, data: base64 } };
    if (ref.mediaType === 'application/pdf') return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: base64 }, title: ref.name };
    return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: new TextDecoder().decode(data) }, title: ref.name };
  });
  if (options.text.trim()) blocks.push({ type: 'text', text: options.text });
  return blocks;
}

export type AttachmentInbox = {
  /** PTY: the files written, then `ready` with the text to type; `failed` when one cannot be had. */
  forPty(delivery: Delivery, then: { ready: (text: string) => void; failed: (reason: string) => void }): void;
  /** An agent that takes images as local files (headless Codex: `localImage`): the files written,
   *  then `ready` with the images' paths and the text, which names the other files by path. */
  forLocalImages(delivery: Delivery, then: { ready: (prompt: { text: string; images: string[] }) => void; failed: (reason: string) => void }): void;
  /** Headless: the content blocks to send (the plain text when there are no files). */
  forHeadless(delivery: Delivery, then: { ready: (content: string | ContentBlock[]) => void; failed: (reason: string) => void }): void;
  /** The session's private folder the files are written under, made now if it was not: an agent
   *  given it at launch reads them without asking (Gemini's --include-directories). */
  folder(): string;
  stop(): void;
};

export function createAttachmentInbox(options: {
  hub: { url: string; token: string } | null;
  sessionId: () => string;
  log: (line: string) => void;
  /** Default: a private dir under the system's temp dir. */
  tempRoot?: string;
}): AttachmentInbox {
  let dir: string | null = null;
  let stopped = false;
  /** The hub re-sends a queued prompt after a reconnect; its files are fetched once. */
  const seen = new Set<string>();
  /** Deliveries resolve in arrival order (see the invariant). */
  let chain: Promise<void> = Promise.resolve();

  const fetchOne = async (ref: AttachmentRef): Promise<Uint8Array> => {
    if (!options.hub) throw new Error('no hub to fetch it from');
    const url = `${options.hub.url.replace(/\/+$/, '')}/api/sessions/${options.sessionId()}/attachments/${ref.id}`;
    let lastError = '';
    for (let attempt = 0; attempt < 2; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      try {
        const res = await fetch(url, { headers: { authorization: `Bearer ${options.hub.token}` } });
        if (res.status === 404) throw new Error('the hub no longer has it');
        if (!res.ok) {
          lastError = `the hub answered ${res.status}`;
          continue;
        }
        const data = new Uint8Array(await res.arrayBuffer());
        if (data.length > ATTACHMENT_MAX_BYTES || data.length !== ref.size) throw new Error(`it is ${data.length} bytes, the hub said ${ref.size}`);
        return data;
      } catch (error) {
        lastError = error instanceof Error ? error.message : String(error);
        if (lastError === 'the hub no longer has it' || lastError.startsWith('it is ')) break;
      }
    }
    throw new Error(lastError);
  };

  const fetchAll = async (delivery: Delivery) => {
    const files: Array<{ ref: AttachmentRef; data: Uint8Array }> = [];
    for (const ref of delivery.attachments) {
      try {
        files.push({ ref, data: await fetchOne(ref) });
      } catch (error) {
        throw new Error(`attachment ${ref.name} could not be fetched: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return files;
  };

  const sessionDir = (): string => {
    if (!dir) {
      const root = options.tempRoot ?? tmpdir();
      mkdirSync(root, { recursive: true });
      // mkdtemp makes it 0700: the files are the person's photos.
      dir = mkdtempSync(join(root, ATTACHMENT_DIR_PREFIX));
    }
    return dir;
  };

  const inOrder = <T>(delivery: Delivery, work: () => Promise<T>, then: { ready: (value: T) => void; failed: (reason: string) => void }) => {
    if (stopped || seen.has(delivery.promptId)) return;
    seen.add(delivery.promptId);
    const run = chain.then(async () => {
      let value: T;
      try {
        value = await work();
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        options.log(`prompt ${delivery.promptId}: ${reason}`);
        if (!stopped) then.failed(reason);
        return;
      }
      if (!stopped) then.ready(value);
    });
    chain = run;
  };

  /** Every file of a delivery written under the session's temp dir (one folder per prompt). */
  const writeAll = async (delivery: Delivery): Promise<Array<{ ref: AttachmentRef; path: string }>> => {
    const files = await fetchAll(delivery);
    const folder = join(sessionDir(), delivery.promptId);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const written = files.map(({ ref, data }, index) => {
      const path = join(folder, safeFileName({ index, ref }));
      writeFileSync(path, data, { mode: 0o600 });
      return { ref, path };
    });
    options.log(`prompt ${delivery.promptId}: ${written.length} attachment(s) written under ${folder}`);
    return written;
  };

  return {
    forPty(delivery, then) {
      if (delivery.attachments.length === 0) return inOrder(delivery, async () => delivery.text, then);
      inOrder(delivery, async () => ptyPromptText({ paths: (await writeAll(delivery)).map((file) => file.path), text: delivery.text }), then);
    },
    forLocalImages(delivery, then) {
      if (delivery.attachments.length === 0) return inOrder(delivery, async () => ({ text: delivery.text, images: [] }), then);
      inOrder(
        delivery,
        async () => {
          const files = await writeAll(delivery);
          const images = files.filter((file) => isImageMediaType(file.ref.mediaType)).map((file) => file.path);
          const others = files.filter((file) => !isImageMediaType(file.ref.mediaType)).map((file) => file.path);
          return { text: ptyPromptText({ paths: others, text: delivery.text }), images };
        },
        then,
      );
    },
    forHeadless(delivery, then) {
      if (delivery.attachments.length === 0) return inOrder(delivery, async () => delivery.text, then);
      inOrder(delivery, async () => headlessContent({ files: await fetchAll(delivery), text: delivery.text }), then);
    },
    folder: sessionDir,
    stop() {
      stopped = true;
      if (dir) rmSync(dir, { recursive: true, force: true });
      dir = null;
    },
  };
}
