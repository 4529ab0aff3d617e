import { createClient } from '@workplan/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { failureOf, type Failure } from './failure.js';
import { FailureNotice } from './FailureNotice.js';
import { type ConsoleResource } from './resources.js';
import { words } from './texts.js';

interface Props {
  /** Why the key was asked for again, when the service refused the one kept. */
  readonly refusal: Failure | undefined;
  /** The operator left, or was sent back: the field takes the focus the signed-in page had. */
  readonly returning: boolean;
  /** A resource the service serves, whose list the key is checked on. */
  readonly checkedOn: ConsoleResource;
  readonly onKey: (key: string) => void;
}

/** Asks for the API key, and keeps it only once the service has accepted it. */
export function KeyForm({ refusal, returning, checkedOn, onKey }: Props) {
  const [key, setKey] = useState('');
  const [checking, setChecking] = useState(false);
  const [failure, setFailure] = useState<Failure | undefined>(refusal);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (returning) field.current?.focus();
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (checking) return;
    // The client refuses such a key before any call, with an error that reads as a lost connection.
    if (!/^[\x21-\x7e]+$/u.test(key.trim())) {
      setFailure({ message: '', detail: words.key.notVisibleAscii, unauthorized: true });
      field.current?.focus();
      return;
    }
    setChecking(true);
    setFailure(undefined);
    try {
      // The cheapest call the key must pass: one record of a list.
      await checkedOn.recordsOf(createClient({ baseUrl: location.origin, key: key.trim(), timeoutMs: 15_000 })).listPage({ limit: 1 });
      onKey(key.trim());
    } catch (error) {
      setFailure(failureOf(error));
      setChecking(false);
      // The refusal is about the key: back to its field, to type it again.
      field.current?.focus();
    }
  };

  // A refused key is about the key, whichever call met the refusal: said so, with the service's detail.
  const shown = failure?.unauthorized === true ? { ...failure, message: words.key.refused, detail: `${failure.detail} ${words.key.retype}` } : failure;
  return (
    <main class="key-screen">
      <h1>
        {words.product} · {words.consoleTitle}
      </h1>
      <form class="card" onSubmit={(event) => void submit(event)}>
        <h2>{words.key.heading}</h2>
        <p>{words.key.intro}</p>
        <label for="api-key">{words.key.label}</label>
        <input
          id="api-key"
          ref={field}
          type="password"
          autocomplete="off"
          spellcheck={false}
          value={key}
          aria-invalid={failure?.unauthorized === true}
          aria-describedby={failure === undefined ? undefined : 'api-key-failure'}
          onInput={(event) => {
            setKey(event.currentTarget.value);
          }}
        />
        <FailureNotice failure={shown} id="api-key-failure" />
        {/* Not disabled while checking: a disabled button would drop the focus. */}
        <button type="submit" disabled={key.trim() === ''} aria-disabled={checking}>
          {checking ? words.key.checking : words.key.submit}
        </button>
      </form>
    </main>
  );
}
