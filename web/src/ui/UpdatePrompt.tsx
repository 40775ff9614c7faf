import { useEffect, useState } from 'react';
import { registerSW } from 'virtual:pwa-register';

/** A new version is offered, never forced mid-edit. */
export function UpdatePrompt() {
  const [update, setUpdate] = useState<(() => Promise<void>) | null>(null);
  useEffect(() => {
    const apply = registerSW({ onNeedRefresh: () => setUpdate(() => () => apply(true)) });
  }, []);
  if (!update) return null;
  return (
    <div className="update-prompt" role="status">
      A new version of Paybench is ready.
      <button type="button" className="primary" onClick={() => void update()}>
        Reload
      </button>
    </div>
  );
}
