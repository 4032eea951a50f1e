// login.tsx: `/login?redirect=…`. Already signed in (and no QR code or token waiting) → straight on.
import { createRoute, redirect, useNavigate } from '@tanstack/react-router';
import { getLogin, hasFragmentCredential } from '../lib/hub.ts';
import { lazy, Suspense } from 'react';
import { Route as rootRoute } from './__root.tsx';
import '../features/login/login.css';

/** Only same-origin paths: a crafted `?redirect=https://evil` or `//evil` must not bounce a fresh
 *  login away. (Checked by hand: zod in the first-load bundle costs 14 KB gzip, see the session route.) */
function safeRedirect(search: Record<string, unknown>): string | undefined {
  const target = search.redirect;
  return typeof target === 'string' && /^\/(?![\/\\])/.test(target) && target.length < 2000 ? target : undefined;
}

// The form loads on demand: a returning phone (the usual case) is already signed in and never needs it.
const LoginForm = lazy(() => import('../features/login/login-form.tsx').then((m) => ({ default: m.LoginForm })));

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: (search: Record<string, unknown>) => {
    const target = safeRedirect(search);
    return target ? { redirect: target } : {};
  },
  beforeLoad: ({ search }) => {
    if (getLogin() && !hasFragmentCredential()) throw redirect({ href: search.redirect ?? '/' });
  },
  component: LoginScreen,
});

function LoginScreen() {
  const search = Route.useSearch();
  const navigate = useNavigate();
  return (
    <Suspense fallback={null}>
      <LoginForm onLoggedIn={() => void navigate({ href: search.redirect ?? '/', replace: true })} />
    </Suspense>
  );
}
