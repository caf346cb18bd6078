import { operationNumber } from '../support/api-client';
import { asyncActor, bodyFor, chargeOk, expect, inspect, test, waitForEvents, waitForState } from './async-helpers';

// The capture window (docs/DECISIONS.md "Capture later"): an authorization nobody captured is
// voided by the worker at its capture_before, EXTORNADO with its reason, its event called back.
// The asynchronous suite's service counts the window in seconds (CAPTURE_WINDOW_SECONDS=4).

test('an uncaptured authorization is voided when its window passes, with its reason and callback', async ({
  request,
  receiver,
}) => {
  const { merchant, token } = await asyncActor(request, 'CPW');
  const number = operationNumber('cap-window');
  const charged = await chargeOk(
    request,
    token,
    bodyFor(merchant.code, number, 'CARD', { capture: 'manual', callback_url: receiver.url('/window') }),
    'AUTORIZADO',
  );
  const capture = charged.transaction.additional_fields?.capture as { status: string; capture_before: { unix_time: number } };
  expect(capture.status).toBe('UNCAPTURED');
  const id = charged.transaction.transaction_id;
  const voided = await waitForState(request, token, merchant.code, number, id, 'EXTORNADO', 15_000);
  expect(voided.transaction.state_reason).toBe('Autorización anulada: no se capturó dentro de su plazo');
  const lifecycle = voided.transaction.lifecycle.map((entry) => entry.state);
  expect(lifecycle).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO', 'EXTORNADO']);
  // Not before its window: the move's time is at or after capture_before.
  const movedAt = voided.transaction.lifecycle.at(-1)!.date.unix_time;
  expect(movedAt).toBeGreaterThanOrEqual(capture.capture_before.unix_time);
  await waitForEvents(
    receiver,
    '/window',
    ['transaction.registered', 'transaction.pending', 'transaction.authorized', 'transaction.reversed'],
    10_000,
  );
  expect((await inspect(merchant.code, number)).transactions[0]!.captureStatus).toBe('UNCAPTURED');
});
