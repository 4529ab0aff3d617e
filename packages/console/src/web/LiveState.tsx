import { useEffect, useState } from 'preact/hooks';
import { useServices } from './services.js';
import { words } from './texts.js';

// Long enough to be read; the news that updates are back needs no more.
const RESUMED_SHOWN_MS = 8_000;

/**
 * Says when colleagues' changes stop reaching the page (the service is away), and again
 * when they come back: a live region of its own, which the page's other news leaves alone.
 */
export function LiveState() {
  const { live } = useServices();
  const [said, setSaid] = useState(live.following ? '' : words.liveStopped);
  useEffect(() => {
    let fading: ReturnType<typeof setTimeout> | undefined;
    const stop = live.watch((following) => {
      clearTimeout(fading);
      setSaid(following ? words.liveResumed : words.liveStopped);
      if (following) fading = setTimeout(() => { setSaid(''); }, RESUMED_SHOWN_MS);
    });
    return () => {
      stop();
      clearTimeout(fading);
    };
  }, [live]);
  return (
    <p class="live-state" role="status">
      {said}
    </p>
  );
}
