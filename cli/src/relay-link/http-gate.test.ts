// http-gate.test.ts: the relay front's HTTP/1.1 gate as a pure function of the two byte streams: every
// request line is checked (absolute-form with a foreign authority refused with the hub's 421), bodies
// are skipped by their framing (a request line inside a body is data), an Upgrade holds what follows
// until the hub answers (101: opaque; anything else: checked), and what it cannot frame closes the
// connection. Each client stream is also fed cut at every byte: the verdicts must not change.
import { describe, expect, it } from 'vitest';
import { createHttpGate } from './http-gate.ts';

const HUB = 'alpha.relay.test';
const checkTarget = (target: string) => (target.startsWith('/') || target === '*' || new RegExp(`^https?://${HUB.replace(/\./g, '\\.')}(:\\d+)?([/?#]|$)`, 'i').test(target) ? null : new Response('421 Misdirected Request\n', { status: 421 }));

type Step = { client: string } | { hub: string };
type Outcome = { toHub: string; refused: string | null };

/** Runs a script through one gate, each client string cut into `cut`-byte pieces (0: whole). */
function run(script: Step[], cut = 0): Outcome {
  const gate = createHttpGate({ checkTarget });
  let toHub = '';
  for (const step of script) {
    const pieces = 'hub' in step ? [step.hub] : cut === 0 ? [step.client] : (step.client.match(new RegExp(`[\\s\\S]{1,${cut}}`, 'g')) ?? []);
    for (const piece of pieces) {
      const result = 'hub' in step ? gate.fromHub(Buffer.from(piece, 'latin1')) : gate.fromClient(Buffer.from(piece, 'latin1'));
      toHub += result.forward.toString('latin1');
      if (result.refuse) return { toHub, refused: `${result.refuse.status} ${result.refuse.reason}` };
    }
  }
  return { toHub, refused: null };
}

/** The same verdict whole and cut at every size from 1 byte up. */
function everyCut(script: Step[]): Outcome {
  const whole = run(script);
  const longest = Math.max(...script.map((s) => ('client' in s ? s.client.length : 0)));
  for (let cut = 1; cut <= longest; cut++) expect(run(script, cut), `cut ${cut}`).toEqual(whole);
  return whole;
}

const get = (target: string, extra = '') => `GET ${target} HTTP/1.1\r\nHost: ${HUB}\r\n${extra}\r\n`;
const ok = (body = 'ok') => `HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
const UPGRADE = get('/socket.io/?EIO=4&transport=websocket', 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n');
/** A request line that must never reach the hub as one. */
const SMUGGLED = get('http://evil.example/');

describe('the relay front HTTP gate', () => {
  it('passes origin-form requests and absolute-form ones for the hub, pipelined', () => {
    const both = get('/healthz') + get(`https://${HUB}/api/sessions`) + get(`http://${HUB.toUpperCase()}:443?x=1`);
    expect(everyCut([{ client: both }])).toEqual({ toHub: both, refused: null });
  });

  it("refuses an absolute-form target the hub does not serve with the hub's 421, whatever Host says, after what came before", () => {
    expect(everyCut([{ client: get('/healthz') + SMUGGLED }])).toEqual({ toHub: get('/healthz'), refused: '421 misdirected' });
    for (const target of ['http://evil.example', `http://user@${HUB}/`, `ftp://${HUB}/`, `${HUB}:443`, `http://${HUB}.evil.example/`, 'http://[::1/']) {
      expect(run([{ client: get(target) }]).refused, target).toBe('421 misdirected');
    }
  });

  it('skips bodies by their framing: a request line inside a body is data, the next head is checked', () => {
    const post = `POST /api/x HTTP/1.1\r\nHost: ${HUB}\r\nContent-Length: ${SMUGGLED.length}\r\n\r\n${SMUGGLED}`;
    expect(everyCut([{ client: post + get('/next') }])).toEqual({ toHub: post + get('/next'), refused: null });
    const chunked = `POST /api/x HTTP/1.1\r\nHost: ${HUB}\r\nTransfer-Encoding: chunked\r\n\r\n${SMUGGLED.length.toString(16)};ext=1\r\n${SMUGGLED}\r\n0\r\nTrailer: x\r\n\r\n`;
    expect(everyCut([{ client: chunked + get('/next') }])).toEqual({ toHub: chunked + get('/next'), refused: null });
    expect(everyCut([{ client: chunked + SMUGGLED }])).toEqual({ toHub: chunked, refused: '421 misdirected' });
  });

  it('holds what follows an Upgrade until the hub answers: after a refusal it is checked, after 101 it is WebSocket frames', () => {
    expect(everyCut([{ client: UPGRADE + SMUGGLED }, { hub: 'HTTP/1.1 400 Bad Request\r\ncontent-length: 3\r\n\r\nno\n' }])).toEqual({ toHub: UPGRADE, refused: '421 misdirected' });
    expect(everyCut([{ client: UPGRADE + get('/ok') }, { hub: 'HTTP/1.1 403 Forbidden\r\ntransfer-encoding: chunked\r\n\r\n2\r\nno\r\n0\r\n\r\n' }])).toEqual({ toHub: UPGRADE + get('/ok'), refused: null });
    const frames = `${SMUGGLED}\x81\x85\x37\xfa\x21\x3d\x7f\x9f\x4d\x51\x58`;
    expect(everyCut([{ client: UPGRADE + frames }, { hub: 'HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\n\r\n' }, { client: SMUGGLED }])).toEqual({ toHub: UPGRADE + frames + SMUGGLED, refused: null });
  });

  it("follows the hub's answers without bodies (HEAD, 204, 304, 100 Continue) to find the Upgrade's", () => {
    const script: Step[] = [
      { client: `HEAD /a HTTP/1.1\r\nHost: ${HUB}\r\n\r\n` + get('/b') + get('/c') + UPGRADE + SMUGGLED },
      { hub: 'HTTP/1.1 200 OK\r\ncontent-length: 999\r\n\r\n' },
      { hub: 'HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 304 Not Modified\r\ncontent-length: 5\r\n\r\n' },
      { hub: 'HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n' },
    ];
    expect(everyCut(script)).toEqual({ toHub: `HEAD /a HTTP/1.1\r\nHost: ${HUB}\r\n\r\n` + get('/b') + get('/c') + UPGRADE, refused: '421 misdirected' });
    // A 101 nobody asked for ends the connection.
    expect(run([{ client: get('/a') }, { hub: 'HTTP/1.1 101 Switching Protocols\r\n\r\n' }]).refused).toBe('502 a 101 nobody asked for');
  });

  it('closes what it cannot frame', () => {
    const cases: Array<[string, string]> = [
      [`POST / HTTP/1.1\r\nHost: ${HUB}\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n`, '400 both Content-Length and Transfer-Encoding'],
      [`POST / HTTP/1.1\r\nHost: ${HUB}\r\nTransfer-Encoding: gzip\r\n\r\n`, '400 Transfer-Encoding without chunked last'],
      [`POST / HTTP/1.1\r\nHost: ${HUB}\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n`, '400 bad Content-Length'],
      [`POST / HTTP/1.1\r\nHost: ${HUB}\r\nContent-Length: -1\r\n\r\n`, '400 bad Content-Length'],
      [`GET / HTTP/1.1\r\nHost: ${HUB}\r\n folded\r\n\r\n`, '400 folded header'],
      [`GET / HTTP/1.1\r\nno colon\r\n\r\n`, '400 bad header'],
      ['GET /\r\n\r\n', '400 bad request line'],
      ['GET / HTTP/2.0\r\n\r\n', '400 bad request line'],
      [`GET / HTTP/1.1\r\nx: ${'a'.repeat(70_000)}`, '431 head too large'],
    ];
    for (const [client, refused] of cases) expect(run([{ client }]), client.slice(0, 80)).toEqual({ toHub: '', refused });
    // A body's framing is judged as it comes: the head went on before.
    const head = `POST / HTTP/1.1\r\nHost: ${HUB}\r\nTransfer-Encoding: chunked\r\n\r\n`;
    expect(everyCut([{ client: `${head}zz\r\n` }])).toEqual({ toHub: head, refused: '400 bad chunk size' });
    expect(everyCut([{ client: `${head}1\r\nab\r\n` }])).toEqual({ toHub: `${head}1\r\na`, refused: '400 bad chunk end' });
    expect(run([{ client: UPGRADE + 'x'.repeat(70_000) }]).refused).toBe('400 too much sent before an upgrade was answered');
  });
});
