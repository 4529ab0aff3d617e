import { createClient, type WorkplanClient } from '@workplan/client';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type Failure } from './failure.js';
import { KeyForm } from './KeyForm.js';
import { createImportDesk } from './import-desk.js';
import { followLiveChanges } from './live-changes.js';
import { LiveState } from './LiveState.js';
import { ResourcePanel } from './ResourcePanel.js';
import { type ConsoleResource } from './resources.js';
import { hrefOf, useRoute } from './route.js';
import { Services, useServices, type ConsoleServices } from './services.js';
import { forgetKey, keepKey, keptKey } from './session.js';
import { words } from './texts.js';

// Each call may wait this long, retries of a 503 included, before the console says so.
const CALL_TIMEOUT_MS = 30_000;
const RETRIES_OF_UNAVAILABLE = 3;

/** The whole page: the key form until the service accepts a key, then the two resources' tabs. */
export function Console({ resources }: { readonly resources: readonly ConsoleResource[] }) {
  const [key, setKey] = useState(keptKey);
  const [refusal, setRefusal] = useState<Failure | undefined>(undefined);
  const [status, setStatus] = useState('');
  const [returning, setReturning] = useState(false);
  const statusTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const announce = (text: string, forMs?: number) => {
    clearTimeout(statusTimer.current);
    setStatus(text);
    if (forMs !== undefined) statusTimer.current = setTimeout(() => { setStatus(''); }, forMs);
  };

  const client = useMemo<WorkplanClient | undefined>(
    () =>
      key === undefined
        ? undefined
        : createClient({
            baseUrl: location.origin,
            key,
            timeoutMs: CALL_TIMEOUT_MS,
            retry: {
              attempts: RETRIES_OF_UNAVAILABLE,
              onRetry: ({ delayMs }) => { announce(words.unavailable(Math.ceil(delayMs / 1000)), delayMs + 500); },
            },
          }),
    [key],
  );

  const signOut = (why?: Failure) => {
    forgetKey();
    setReturning(true);
    setRefusal(why);
    setKey(undefined);
    setStatus('');
  };

  // One follower of the feed per key, started with it (the lists wait for it to know where
  // it starts) and stopped when the key goes.
  const following = useMemo(() => {
    if (client === undefined) return undefined;
    const stop = new AbortController();
    return { stop, live: followLiveChanges(client, resources, stop.signal, signOut), imports: createImportDesk(signOut) };
  }, [client, resources]);
  // Signed out, the key's import stops too, as at a cancel.
  useEffect(() => () => {
    following?.stop.abort();
    following?.imports.cancel();
  }, [following]);

  if (client === undefined || following === undefined) {
    // kinds.json holds at least one kind (kinds.ts refuses an empty list): the key is checked on the first.
    const [checkedOn] = resources;
    if (checkedOn === undefined) throw new TypeError('the console was given no kind of record');
    return (
      <KeyForm
        refusal={refusal}
        returning={returning}
        checkedOn={checkedOn}
        onKey={(accepted) => {
          keepKey(accepted);
          setRefusal(undefined);
          setKey(accepted);
        }}
      />
    );
  }
  const services: ConsoleServices = { client, resources, refused: signOut, announce: (text) => { announce(text); }, live: following.live, imports: following.imports };
  return (
    <Services.Provider value={services}>
      <SignedIn onSignOut={() => { signOut(); }} status={status} />
    </Services.Provider>
  );
}

function SignedIn({ onSignOut, status }: { readonly onSignOut: () => void; readonly status: string }) {
  const { resources } = useServices();
  const route = useRoute(resources);
  const { resource } = route;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${resource.words.title} · ${words.product}`;
  }, [resource]);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  return (
    <>
      <header class="top">
        <p class="brand">
          {words.product} <span>{words.consoleTitle}</span>
        </p>
        <nav aria-label={words.resources}>
          {resources.map((each) => (
            <a key={each.slug} href={hrefOf(each)} aria-current={each === resource ? 'page' : undefined}>
              {each.words.title}
            </a>
          ))}
        </nav>
        <button type="button" class="secondary" onClick={onSignOut}>
          {words.signOut}
        </button>
      </header>
      <p class="status" role="status">
        {status}
      </p>
      <LiveState />
      <main>
        <h1 ref={heading} tabIndex={-1}>
          {resource.words.title}
        </h1>
        {route.misread && (
          <p class="info" role="alert">
            {words.addressMisread}
          </p>
        )}
        <ResourcePanel key={resource.slug} route={route} />
      </main>
    </>
  );
}
