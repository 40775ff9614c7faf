import { useCallback } from 'react';
import { useLocation, useSearch } from 'wouter';

/**
 * UI state kept in a URL query parameter (spec §2): opening pushes a history entry, so back and
 * forward close and reopen what the parameter describes.
 */
export function useQueryParam(name: string): [string | null, (value: string | null, options?: { replace?: boolean }) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const value = new URLSearchParams(search).get(name);
  const set = useCallback(
    (next: string | null, options?: { replace?: boolean }) => {
      const params = new URLSearchParams(window.location.search);
      if (next === null) params.delete(name);
      else params.set(name, next);
      const query = params.toString();
      navigate(`${location}${query ? `?${query}` : ''}`, { replace: options?.replace ?? false });
    },
    [name, location, navigate],
  );
  return [value, set];
}
