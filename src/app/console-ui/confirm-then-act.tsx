'use client';

import { useState } from 'react';
import { ActionError, Confirm } from './form-kit';
import { SECONDARY_BUTTON } from './buttons';
import { useConsoleAction } from './use-console-action';

type ConfirmThenActProps<T> = {
  /** Names the dialog's title and body for assistive technology. */
  id: string;
  label: string;
  title: string;
  body: string;
  yes: string;
  no: string;
  act: () => Promise<T>;
  /** What the console says once the action is done. */
  done: (result: T) => string;
  doneTestId: string;
  /**
   * Whether the action can be taken now (default true). Once the action makes it impossible
   * (a removed card), the page's refresh hides the button, and the component stays mounted so
   * that what it said stays on the page.
   */
  available?: boolean;
};

/** A button that asks first, then runs an action that cannot be undone and says what it did. */
export function ConfirmThenAct<T>({
  id,
  label,
  title,
  body,
  yes,
  no,
  act,
  done,
  doneTestId,
  available = true,
}: ConfirmThenActProps<T>) {
  const action = useConsoleAction();
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  return (
    <div className="space-y-2">
      {confirming ? (
        <Confirm
          id={id}
          title={title}
          body={body}
          yes={yes}
          no={no}
          busy={action.busy}
          onYes={() =>
            action.run(act, (result) => {
              setConfirming(false);
              setMessage(done(result));
            })
          }
          onNo={() => setConfirming(false)}
        />
      ) : available ? (
        <button
          type="button"
          disabled={action.busy}
          className={SECONDARY_BUTTON}
          onClick={() => {
            setMessage(null);
            setConfirming(true);
          }}
        >
          {label}
        </button>
      ) : null}
      <ActionError message={action.error} />
      {message !== null ? (
        <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900" data-testid={doneTestId}>
          {message}
        </p>
      ) : null}
    </div>
  );
}
