// find-results.tsx: the places Find found, one section per source (chat, terminal, files), each
// place a link to it: the chat at the message (`?at=&block=&tool=`), the terminal at the line
// (`?find=`), Files at the file's line (`?file=&line=`). A source that could not be searched says
// why; one that stopped early says at what limit.
import { Link } from '@tanstack/react-router';
import type { ChatFindMatch, FindAnswer, Session } from '@tether/shared';
import { formatClockTime } from '../../lib/format.ts';
import '../workspace/workspace.css';

type Snippet = { text: string; start: number; end: number };

export function countPlaces(answer: FindAnswer): number {
  return [answer.chat, answer.terminal, answer.files].reduce((n, part) => n + (part?.ok ? part.matches.length : 0), 0);
}

/** The line with its match marked. */
function Marked({ snippet }: { snippet: Snippet }) {
  const { text, start, end } = snippet;
  return (
    <span className="find-snippet">
      {text.slice(0, start)}
      <mark>{text.slice(start, end)}</mark>
      {text.slice(end)}
    </span>
  );
}

const STOPS: Record<string, string> = {
  matches: 'Showing the first places only: search for something longer to narrow it.',
  bytes: 'Stopped after reading its limit of file contents.',
  entries: 'Stopped after its limit of files and folders.',
  time: 'Stopped after its time limit.',
  scan: 'Stopped after its limit of candidate messages.',
};

function Section({ id, title, part, children }: { id: string; title: string; part: FindAnswer['chat'] | FindAnswer['terminal'] | FindAnswer['files']; children: React.ReactNode }) {
  if (!part) return null;
  const headingId = `find-${id}`;
  return (
    <section className="find-section" aria-labelledby={headingId}>
      <h3 id={headingId} className="find-section-title">
        {title} <span className="find-count">{part.ok ? part.matches.length : '—'}</span>
      </h3>
      {!part.ok ? (
        <p className="find-note">{part.error}</p>
      ) : part.matches.length === 0 ? (
        <p className="find-note">Nothing here.</p>
      ) : (
        <ul className="file-list find-list">{children}</ul>
      )}
      {part.ok && part.stopped ? <p className="find-note">{STOPS[part.stopped]}</p> : null}
    </section>
  );
}

const roleWord = (m: ChatFindMatch) => (m.toolUseId !== null ? 'Tool result' : m.role === 'user' ? 'You' : m.role === 'system' ? 'Note' : 'Agent');

export function FindResults({ session, answer, onOpen }: { session: Session; answer: FindAnswer; onOpen: () => void }) {
  const sessionId = session.id;
  const { chat, terminal, files } = answer;
  return (
    <div className="find-results">
      <Section id="chat" title="Chat" part={chat}>
        {chat?.ok
          ? chat.matches.map((m, i) => (
              <li key={`${m.seq}-${m.block}-${i}`}>
                <Link className="file-entry find-place" to="/sessions/$sessionId" params={{ sessionId }} search={{ at: m.seq, block: m.block, ...(m.toolUseId ? { tool: m.toolUseId } : {}) }} onClick={onOpen}>
                  <span className="find-where">
                    {roleWord(m)} · {formatClockTime(m.createdAt)}
                  </span>
                  <Marked snippet={m} />
                </Link>
              </li>
            ))
          : null}
        {chat?.ok && chat.from !== null ? <li className="find-note">Searched messages from #{chat.from} on (the newest 20,000).</li> : null}
      </Section>
      {session.launchKind === 'pty' || terminal?.ok ? (
        <Section id="terminal" title="Terminal" part={terminal}>
          {terminal?.ok
            ? terminal.matches.map((m, i) => (
                <li key={i}>
                  <Link className="file-entry find-place" to="/sessions/$sessionId/terminal" params={{ sessionId }} search={{ find: m.text }} onClick={onOpen}>
                    <Marked snippet={m} />
                  </Link>
                </li>
              ))
            : null}
        </Section>
      ) : null}
      <Section id="files" title="Files" part={files}>
        {files?.ok
          ? files.matches.map((m, i) => (
              <li key={`${m.path}-${m.line ?? 0}-${i}`}>
                <Link className="file-entry find-place" to="/sessions/$sessionId/files" params={{ sessionId }} search={m.line === null ? { file: m.path } : { file: m.path, line: m.line }} onClick={onOpen}>
                  <span className="find-where">
                    {m.path}
                    {m.line !== null ? `:${m.line}` : ' (name)'}
                  </span>
                  {m.line !== null ? <Marked snippet={m} /> : null}
                </Link>
              </li>
            ))
          : null}
      </Section>
    </div>
  );
}
