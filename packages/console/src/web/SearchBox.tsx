import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { SEARCH_MAX_LENGTH } from './list-query.js';
import { words } from './texts.js';

// Long enough for a word typed at a steady pace to be one search, short enough to feel live.
const TYPING_PAUSE_MS = 250;

interface Props {
  /** The search the list shows; the box follows it when the address changes it. */
  readonly search: string;
  readonly onSearch: (search: string) => void;
}

/** A search as you type: the list follows once typing pauses, or at once on Enter. */
export function SearchBox({ search, onSearch }: Props) {
  const fieldId = useId();
  const helpId = useId();
  const [typed, setTyped] = useState(search);
  const pause = useRef<ReturnType<typeof setTimeout>>(undefined);
  // The search this box last gave the list: any other came from the address (a link, the back button).
  const given = useRef(search);
  useEffect(() => () => { clearTimeout(pause.current); }, []);
  useEffect(() => {
    if (search === given.current) return;
    given.current = search;
    clearTimeout(pause.current);
    setTyped(search);
  }, [search]);
  const settle = (text: string) => {
    clearTimeout(pause.current);
    given.current = text.trim();
    onSearch(given.current);
  };
  return (
    <form
      role="search"
      class="search"
      onSubmit={(event) => {
        event.preventDefault();
        settle(typed);
      }}
    >
      <label for={fieldId}>{words.search}</label>
      <input
        id={fieldId}
        type="search"
        value={typed}
        maxLength={SEARCH_MAX_LENGTH}
        autocomplete="off"
        aria-describedby={helpId}
        onInput={(event) => {
          const text = event.currentTarget.value;
          setTyped(text);
          clearTimeout(pause.current);
          pause.current = setTimeout(() => { settle(text); }, TYPING_PAUSE_MS);
        }}
      />
      <p id={helpId} class="help">
        {words.searchHelp}
      </p>
    </form>
  );
}
