import { type WorkplanClient } from '@workplan/client';
import { createContext } from 'preact';
import { useContext, useState } from 'preact/hooks';
import { failureOf, isAbort, type Failure } from './failure.js';
import { type ImportDesk } from './import-desk.js';
import { type LiveChanges } from './live-changes.js';
import { type ConsoleResource } from './resources.js';

/** What every screen of a signed-in operator shares. */
export interface ConsoleServices {
  readonly client: WorkplanClient;
  /** A tab for each kind of record the service serves. */
  readonly resources: readonly ConsoleResource[];
  /** The key was refused: forget it and ask for it again, saying why. */
  readonly refused: (failure: Failure) => void;
  /** Says something in the page's status line (read out by screen readers). */
  readonly announce: (text: string) => void;
  /** What colleagues change, as it happens. */
  readonly live: LiveChanges;
  /** The one import at a time, whichever tab is shown. */
  readonly imports: ImportDesk;
}

export const Services = createContext<ConsoleServices | undefined>(undefined);

export function useServices(): ConsoleServices {
  const services = useContext(Services);
  if (services === undefined) throw new Error('a screen was rendered outside <Services.Provider>');
  return services;
}

/** The state of one kind of call in a component: running or not, and its last failure. */
export interface Operation {
  readonly busy: boolean;
  readonly failure: Failure | undefined;
  readonly clear: () => void;
  /** Runs `call`; resolves its result, or undefined after keeping its failure to show (and telling `onFailure`). */
  readonly run: <T>(call: () => Promise<T>, onFailure?: (failure: Failure) => void) => Promise<T | undefined>;
}

/** Calls from a component: a refused key goes back to the key form, a cancel says nothing, any other failure is kept. */
export function useOperation(): Operation {
  const { refused } = useServices();
  // Runs may overlap (a search typed while the last one is answered): busy while any is.
  const [running, setRunning] = useState(0);
  const [failure, setFailure] = useState<Failure | undefined>(undefined);
  const run = async <T,>(call: () => Promise<T>, onFailure?: (failure: Failure) => void): Promise<T | undefined> => {
    setRunning((count) => count + 1);
    setFailure(undefined);
    try {
      return await call();
    } catch (error) {
      if (isAbort(error)) return undefined;
      const shown = failureOf(error);
      if (shown.unauthorized === true) refused(shown);
      else setFailure(shown);
      onFailure?.(shown);
      return undefined;
    } finally {
      setRunning((count) => count - 1);
    }
  };
  return {
    busy: running > 0,
    failure,
    run,
    clear: () => {
      setFailure(undefined);
    },
  };
}
