// fact-text.tsx: the longer words behind the header's "Bypass" and "who is in control" chips,
// loaded on the first tap so that they cost the first load nothing.
export type FactKey = 'bypass' | 'adopted' | 'desk' | 'desk-away' | 'remote' | 'remote-desk' | 'desk-attached';

const REMOTE = 'The last input came from a phone or browser (this one or another), or tether send.';

const TEXT: Record<FactKey, string> = {
  bypass:
    'This session was started with --dangerously-skip-permissions: Claude runs every tool (commands, edits, ' +
    'web requests) without asking, so no approvals will reach this screen. tether never turns this on by itself.',
  adopted:
    'tether attached to a background session it did not start (claude --bg). It runs without tether\'s hooks: ' +
    'no hook approvals and no "allow for this session". Every dialog it draws, permission questions included, ' +
    'reaches this screen as a dialog and is answered with the keys it takes. End detaches: the session keeps running in claude\'s own pool.',
  desk: 'The last input came from the terminal where Claude runs. Messages you send still go in: they are typed once Claude is idle.',
  'desk-away': 'The last input came from the desk terminal, which is no longer attached. You can carry on from here.',
  remote: `${REMOTE} No desk terminal is attached.`,
  'remote-desk': `${REMOTE} A desk terminal is attached and watching; it sets the terminal size.`,
  'desk-attached': 'A terminal at the desk shows this session and sets its size. Nobody has typed yet.',
};

export function FactText({ fact }: { fact: FactKey }) {
  return <p className="info-text">{TEXT[fact]}</p>;
}
