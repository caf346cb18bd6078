'use client';

import { useFormatter, useTranslations } from 'next-intl';
import { businessTime, money, zoneName } from '../../../console-ui/format';
import { useBusinessZone } from '../../../console-ui/zone-context';
import { SECONDARY_BUTTON } from '../../../console-ui/buttons';
import { DataTable } from '../../../console-ui/table';
import { MethodName } from '../../../console-ui/states';
import { type Candidate } from './batch-text';

/** The merchant's refundable transactions, each with a box that puts it in (or out of) the request. */
export function CandidateTable({
  candidates,
  more,
  chosen,
  onToggle,
  onAddAll,
}: {
  candidates: Candidate[];
  more: boolean;
  chosen: ReadonlySet<string>;
  onToggle: (candidate: Candidate) => void;
  onAddAll: () => void;
}) {
  const zone = useBusinessZone();
  const t = useTranslations('refunds.new.batch');
  const format = useFormatter();
  return (
    <section aria-labelledby="eligible" className="space-y-2">
      <h2 id="eligible" className="text-lg font-semibold">
        {t('eligible')}
      </h2>
      <p className="text-sm text-slate-600">{t('eligibleHint')}</p>
      {candidates.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-4 text-center text-slate-600">
          {t('noEligible')}
        </p>
      ) : (
        <>
          <DataTable
            caption={t('eligibleCaption')}
            testId="eligible-table"
            columns={[
              t('include'),
              t('operation'),
              t('method'),
              { label: t('amount'), right: true },
              t('date', { zone: zoneName(zone) }),
            ]}
          >
            {candidates.map((candidate) => (
              <tr key={candidate.transactionId} className="border-t border-slate-100" data-testid="eligible-row">
                <td className="px-3 py-2">
                  <input
                    type="checkbox"
                    className="h-4 w-4 focus-visible:ring-4 focus-visible:ring-slate-300"
                    aria-label={t('includeOne', { number: candidate.merchantOperationNumber })}
                    checked={chosen.has(candidate.transactionId)}
                    onChange={() => onToggle(candidate)}
                  />
                </td>
                <td className="px-3 py-2 font-mono">{candidate.merchantOperationNumber}</td>
                <td className="px-3 py-2 whitespace-nowrap">
                  <MethodName method={candidate.method} />{' '}
                  <span className="font-mono whitespace-nowrap text-slate-500">{candidate.maskedPan ?? ''}</span>
                </td>
                <td className="px-3 py-2 text-right whitespace-nowrap">{money(format, candidate.amount, candidate.currency)}</td>
                <td className="px-3 py-2 whitespace-nowrap">{businessTime(format, candidate.createdAt)}</td>
              </tr>
            ))}
          </DataTable>
          <div className="flex flex-wrap items-center gap-3">
            <button type="button" onClick={onAddAll} className={SECONDARY_BUTTON}>
              {t('addVisible')}
            </button>
            {more ? <p className="text-sm text-slate-600">{t('more', { count: candidates.length })}</p> : null}
          </div>
        </>
      )}
    </section>
  );
}
