// login.tsx: `/login?redirect=…`. Already signed in (and no QR token waiting) → straight on.
import { createRoute, redirect, useNavigate } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { getLogin, hasFragmentToken } from '../lib/hub.ts';
import { LoginForm } from '../features/login/login-form.tsx';
import { Route as rootRoute } from './__root.tsx';

/** Only same-origin paths: a crafted `?redirect=https://evil` must not bounce a fresh login away. */
const LoginSearchSchema = z.object({
  redirect: z.optional(z.string().check(z.regex(/^\/(?!\/)/))),
});

function safeRedirect(search: unknown): string | undefined {
  const parsed = LoginSearchSchema.safeParse(search);
  return parsed.success ? parsed.data.redirect : undefined;
}

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: (search: Record<string, unknown>) => {
    const target = safeRedirect(search);
    return target ? { redirect: target } : {};
  },
  beforeLoad: ({ search }) => {
    if (getLogin() && !hasFragmentToken()) throw redirect({ href: search.redirect ?? '/' });
  },
  component: LoginScreen,
});

function LoginScreen() {
  const search = Route.useSearch();
  const navigate = useNavigate();
  return <LoginForm onLoggedIn={() => void navigate({ href: search.redirect ?? '/', replace: true })} />;
}
