import { type Failure } from './failure.js';
import { HolderLink } from './HolderLink.js';
import { type ConsoleResource } from './resources.js';
import { words } from './texts.js';

interface Props {
  readonly failure: Failure | undefined;
  readonly resource?: ConsoleResource;
  /** Offered on a 412: read the record again. */
  readonly onReload?: () => void;
  /** Offered where trying again makes sense (a list that did not load). */
  readonly onRetry?: () => void;
  /** The id the notice takes, for a field's `aria-describedby`. */
  readonly id?: string;
}

/** A failure as the operator needs it: the service's message, what went wrong, and what to do next. */
export function FailureNotice({ failure, resource, onReload, onRetry, id }: Props) {
  if (failure === undefined) return null;
  return (
    <div class="failure" role="alert" id={id}>
      <p class="failure-message">{failure.message}</p>
      <p>{failure.fieldIssue ?? failure.detail}</p>
      {failure.existingId !== undefined && resource !== undefined && <HolderLink resource={resource} id={failure.existingId} />}
      {failure.stale === true && onReload !== undefined && (
        <button type="button" onClick={onReload}>
          {words.reload}
        </button>
      )}
      {onRetry !== undefined && failure.stale !== true && (
        <button type="button" onClick={onRetry}>
          {words.tryAgain}
        </button>
      )}
      {failure.requestId !== undefined && <p class="request-id">{words.requestId(failure.requestId)}</p>}
    </div>
  );
}
