import { useQuery } from '../api/client';
import { useSession } from '../auth/Session';

/**
 * The signed-in person (`/api/me`), asked once a session exists. It lives below the guard so that
 * screens the guard loads (module access) can read the person without importing the guard back.
 */
export function usePerson() {
  const { user } = useSession();
  return useQuery('/api/me', user ? {} : null);
}
