import { createClient } from '@workplan/client';
import { useState } from 'preact/hooks';
import { failureOf, type Failure } from './failure.js';
import { FailureNotice } from './FailureNotice.js';
import { words } from './texts.js';

interface Props {
  /** Why the key was asked for again, when the service refused the one kept. */
  readonly refusal: Failure | undefined;
  readonly onKey: (key: string) => void;
}

/** Asks for the API key, and keeps it only once the service has accepted it. */
export function KeyForm({ refusal, onKey }: Props) {
  const [key, setKey] = useState('');
  const [checking, setChecking] = useState(false);
  const [failure, setFailure] = useState<Failure | undefined>(refusal);

  const submit = async (event: Event) => {
    event.preventDefault();
    setChecking(true);
    setFailure(undefined);
    try {
      // The cheapest call the key must pass: one record of a list.
      await createClient({ baseUrl: location.origin, key: key.trim(), timeoutMs: 15_000 }).scales.listPage({ limit: 1 });
      onKey(key.trim());
    } catch (error) {
      setFailure(failureOf(error));
      setChecking(false);
    }
  };

  const shown = failure?.unauthorized === true ? { ...failure, detail: `${failure.detail} ${words.key.wrong}` } : failure;
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
        <button type="submit" disabled={checking || key.trim() === ''}>
          {checking ? words.key.checking : words.key.submit}
        </button>
      </form>
    </main>
  );
}
