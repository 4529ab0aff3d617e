import { render } from 'preact';
import { Console } from './Console.js';
import { kindsOf, type ConsoleKind } from './kinds.js';
import { consoleResourcesOf } from './resources.js';
import { words } from './texts.js';
import './console.css';

/** Reads the kinds the service serves, from beside the page. */
async function fetchKinds(): Promise<ConsoleKind[]> {
  const answer = await fetch(new URL('kinds.json', location.href), { headers: { accept: 'application/json' } });
  if (!answer.ok) throw new Error(`kinds.json answered ${String(answer.status)}`);
  return kindsOf(await answer.json());
}

const root = document.getElementById('console');
if (root === null) throw new Error('index.html has no #console element');
// The tabs are the kinds the service serves, read before the first screen.
fetchKinds().then(
  (kinds) => {
    render(<Console resources={consoleResourcesOf(kinds)} />, root);
  },
  (error: unknown) => {
    root.textContent = words.kindsUnread;
    throw error;
  },
);
