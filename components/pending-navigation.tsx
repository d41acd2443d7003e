"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { createContext, use, useCallback, useMemo, useTransition, type ComponentProps, type MouseEvent } from "react";

interface PendingNavigation {
  isPending: boolean;
  navigate: (href: string, options?: { replace?: boolean }) => void;
}

const PendingNavigationContext = createContext<PendingNavigation | null>(null);

/** One transition for every control of a view, so the view can show that new data is on its way. */
export function PendingNavigationProvider({ children }: { children: React.ReactNode }) {
  const router = useRouter();
  const [isPending, startTransition] = useTransition();
  const navigate = useCallback(
    (href: string, options: { replace?: boolean } = {}) =>
      startTransition(() => {
        if (options.replace) router.replace(href, { scroll: false });
        else router.push(href, { scroll: false });
      }),
    [router],
  );
  const value = useMemo(() => ({ isPending, navigate }), [isPending, navigate]);
  return <PendingNavigationContext value={value}>{children}</PendingNavigationContext>;
}

export function usePendingNavigation(): PendingNavigation {
  const context = use(PendingNavigationContext);
  if (!context) throw new Error("usePendingNavigation needs a PendingNavigationProvider");
  return context;
}

/** Call from a link's onClick: plain clicks navigate in the shared transition, modified clicks open tabs as usual. */
export function useTransitionClick() {
  const { navigate } = usePendingNavigation();
  return useCallback(
    (event: MouseEvent<HTMLAnchorElement>) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      navigate(event.currentTarget.getAttribute("href") ?? "/");
    },
    [navigate],
  );
}

/** A Next link that navigates inside the shared transition. */
export function TransitionLink(props: ComponentProps<typeof Link>) {
  const onClick = useTransitionClick();
  return <Link scroll={false} {...props} onClick={onClick} />;
}
