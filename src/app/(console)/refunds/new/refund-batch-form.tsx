'use client';

import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { PRIMARY_BUTTON, SECONDARY_BUTTON } from '../../../console-ui/buttons';
import { Confirm } from '../../../console-ui/form-kit';
import { consoleClient } from '../../../console-ui/trpc-client';
import { useErrorMessage } from '../../../console-ui/use-console-action';
import { BatchItems } from './batch-items';
import { BatchResult } from './batch-result';
import { MAX_ITEMS, type BatchItem, type BatchOutcome, type Candidate, type Fields } from './batch-text';
import { CandidateTable } from './candidate-table';
import { ReasonFields } from './reason-fields';
import { centsOfInput } from '../../../console-ui/amount-input';

/**
 * The batch refund form: transactions from the eligible list or pasted by id, one reason for
 * all with a per-item override, a confirmation, then every item's outcome.
 */
export function RefundBatchForm({
  merchantCode,
  candidates,
  more,
}: {
  /** Named for platform admins (they act for the merchant they chose); merchant admins act for theirs. */
  merchantCode?: string;
  candidates: Candidate[];
  more: boolean;
}) {
  const errorText = useErrorMessage();
  const t = useTranslations('refunds.new.batch');
  const router = useRouter();
  const [items, setItems] = useState<BatchItem[]>([]);
  const [common, setCommon] = useState<Fields>({ canal: 'console', reason: '', description: '' });
  const [pasted, setPasted] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ outcome: BatchOutcome; sent: BatchItem[] } | null>(null);
  const chosen = new Set(items.map((item) => item.transactionId));

  /** Adds what is not in yet, up to the request's limit; says so when the limit is reached. */
  const add = (next: BatchItem[]) => {
    const fresh = next.filter(
      (item, index) =>
        !chosen.has(item.transactionId) && next.findIndex((other) => other.transactionId === item.transactionId) === index,
    );
    const room = MAX_ITEMS - items.length;
    setProblem(fresh.length > room ? t('tooMany', { max: MAX_ITEMS }) : null);
    setItems([...items, ...fresh.slice(0, Math.max(room, 0))]);
  };
  const fromCandidate = (candidate: Candidate): BatchItem => ({
    transactionId: candidate.transactionId,
    candidate,
    own: null,
    amount: '',
  });

  const addPasted = () => {
    const ids = pasted
      .split(/[\s,;]+/)
      .filter(Boolean)
      .map((id) => id.toLowerCase());
    const long = ids.find((id) => id.length > 64);
    if (long) return setProblem(t('tooLong', { id: long.slice(0, 20) }));
    add(
      ids.map((id) => {
        const candidate = candidates.find((entry) => entry.transactionId === id);
        return candidate ? fromCandidate(candidate) : { transactionId: id, candidate: null, own: null, amount: '' };
      }),
    );
    setPasted('');
  };

  const missingReason = (): string | null => {
    const index = items.findIndex((item) => item.own !== null && !item.own.reason.trim());
    if (index >= 0) return t('needReason', { index: index + 1 });
    const badPart = items.findIndex((item) => item.amount.trim() !== '' && centsOfInput(item.amount) === null);
    if (badPart >= 0) return t('badPart', { index: badPart + 1 });
    return items.some((item) => item.own === null) && !common.reason.trim() ? t('needCommonReason') : null;
  };

  const send = () => {
    const sent = items;
    setBusy(true);
    consoleClient.console.refundBatch
      .mutate({
        merchantCode,
        items: sent.map((item) => {
          const amount = item.amount.trim() === '' ? null : centsOfInput(item.amount);
          return { transactionId: item.transactionId, ...(amount ? { amount } : {}), additional_fields: item.own ?? common };
        }),
      })
      .then(
        (outcome) => {
          setResult({ outcome, sent });
          if (outcome.filed) {
            setItems([]);
            router.refresh();
          }
        },
        (failure: unknown) => setProblem(errorText(failure)),
      )
      .finally(() => {
        setBusy(false);
        setConfirming(false);
      });
  };

  return (
    <div className="space-y-6">
      {result ? (
        <BatchResult
          outcome={result.outcome}
          sent={result.sent}
          onRemoveFailed={() => {
            if (result.outcome.filed) return;
            const failed = new Set(result.outcome.items.filter((item) => item.refusal).map((item) => item.transactionId));
            setItems(items.filter((item) => !failed.has(item.transactionId)));
            setResult(null);
          }}
        />
      ) : null}
      <CandidateTable
        candidates={candidates}
        more={more}
        chosen={chosen}
        onToggle={(candidate) =>
          chosen.has(candidate.transactionId)
            ? setItems(items.filter((item) => item.transactionId !== candidate.transactionId))
            : add([fromCandidate(candidate)])
        }
        onAddAll={() => add(candidates.map(fromCandidate))}
      />
      <section aria-labelledby="paste" className="space-y-2">
        <h2 id="paste" className="text-lg font-semibold">
          {t('paste')}
        </h2>
        <label htmlFor="pasted-ids" className="block text-sm">
          {t('pasteLabel')}
        </label>
        <p id="paste-hint" className="text-sm text-slate-600">
          {t('pasteHint')}
        </p>
        <textarea
          id="pasted-ids"
          aria-describedby="paste-hint"
          value={pasted}
          onChange={(event) => setPasted(event.target.value)}
          rows={3}
          className="block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 font-mono text-sm focus:outline-none focus-visible:ring-4 focus-visible:ring-slate-300"
        />
        <button type="button" onClick={addPasted} className={SECONDARY_BUTTON}>
          {t('addPasted')}
        </button>
      </section>
      <form
        className="space-y-6"
        onSubmit={(event) => {
          event.preventDefault();
          const missing = missingReason();
          setProblem(missing);
          if (!missing) setConfirming(true);
        }}
      >
        <fieldset className="space-y-2 rounded-lg border border-slate-200 bg-white p-3">
          <legend className="px-1 font-semibold">{t('common')}</legend>
          <p className="text-sm text-slate-600">{t('commonHint')}</p>
          <ReasonFields value={common} onChange={setCommon} />
        </fieldset>
        <BatchItems
          items={items}
          common={common}
          onChange={(transactionId, change) =>
            setItems(items.map((item) => (item.transactionId === transactionId ? { ...item, ...change } : item)))
          }
          onRemove={(transactionId) => setItems(items.filter((item) => item.transactionId !== transactionId))}
        />
        {problem ? (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {problem}
          </p>
        ) : null}
        {confirming ? (
          <Confirm
            id="refund-batch"
            title={t('confirmTitle', { count: items.length })}
            body={t('confirmText')}
            yes={busy ? t('sending') : t('confirm')}
            no={t('back')}
            busy={busy}
            danger={false}
            onYes={send}
            onNo={() => setConfirming(false)}
          />
        ) : (
          <button type="submit" disabled={items.length === 0} className={PRIMARY_BUTTON}>
            {t('submit', { count: items.length })}
          </button>
        )}
      </form>
    </div>
  );
}
