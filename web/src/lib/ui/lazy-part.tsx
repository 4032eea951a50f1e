// lazy-part.tsx: a part of a screen whose code loads when it is first drawn, and whose failure to
// load costs that part only. React.lazy alone throws a failed import to the nearest error boundary,
// the router's, which replaced the whole app with "Something went wrong!": a phone offline, tapping
// a session it had cached, lost its chat because the rule proposals' chunk (drawn unprompted once
// the first screen is painted) was not on the phone yet. A part that cannot load draws its
// `failed` fallback (nothing by default) and tries again when the browser is back online or the
// part is next drawn; React.lazy remembers a rejection forever, so a retry is a new lazy.
//
//   first draw ─► import() ─ok─► the part
//                          └─fails─► fallback ──'online' or a later draw──► import() again
import { Component, lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';
import { networkToBlame, retryAtOnline } from '../route-code.ts';

type Options = {
  /** Drawn while the code loads. */
  loading?: ReactNode;
  /** Drawn once it failed to load, until it loads. */
  failed?: ReactNode;
};

type BoundaryProps = { children: ReactNode; failed: ReactNode; onFailed: () => void; onRetry: () => void };

class PartBoundary extends Component<BoundaryProps, { error: boolean }> {
  override state = { error: false };

  static getDerivedStateFromError(): { error: boolean } {
    return { error: true };
  }

  private cancelRetry: (() => void) | undefined;

  override componentDidCatch(): void {
    this.props.onFailed();
    // Failed just after coming back online (a request refused offline fails late): soon, too.
    this.cancelRetry = retryAtOnline(() => this.props.onRetry(), { soon: navigator.onLine && networkToBlame() });
  }

  override componentWillUnmount(): void {
    this.cancelRetry?.();
  }

  override render(): ReactNode {
    return this.state.error ? this.props.failed : this.props.children;
  }
}

/** `load` resolves to the part's component (e.g. `() => import('./x.tsx').then((m) => m.X)`). */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>, options: Options = {}): ComponentType<P> {
  const fresh = () => lazy(async () => ({ default: await load() }));
  let Loaded = fresh();
  // A failure is forgotten once: the next draw (or an 'online') loads again.
  const forget = (failed: typeof Loaded) => {
    if (Loaded === failed) Loaded = fresh();
  };

  function LazyPart(props: P) {
    const [attempt, setAttempt] = useState(0);
    const Current = Loaded;
    return (
      <PartBoundary key={attempt} failed={options.failed ?? null} onFailed={() => forget(Current)} onRetry={() => setAttempt((n) => n + 1)}>
        <Suspense fallback={options.loading ?? null}>
          <Current {...props} />
        </Suspense>
      </PartBoundary>
    );
  }
  return LazyPart;
}
