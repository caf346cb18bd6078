import { describe, expect, it } from 'vitest';
import { BREAKER_RULES, BreakerBoard, CircuitBreaker, type BreakerOutcome } from './circuit-breaker';

function setup() {
  const clock = { ms: 1_000_000 };
  const now = () => clock.ms;
  return { clock, breaker: new CircuitBreaker({ now }), advance: (ms: number) => (clock.ms += ms) };
}

function recordAll(breaker: CircuitBreaker, outcomes: BreakerOutcome[]) {
  for (const outcome of outcomes) breaker.record(outcome);
}

const times = (n: number, outcome: BreakerOutcome): BreakerOutcome[] => Array.from({ length: n }, () => outcome);

/** Opens a breaker with 5 technical failures in a row and lets 30 s pass: half-open. */
function halfOpen() {
  const context = setup();
  recordAll(context.breaker, times(5, 'technical_failure'));
  context.advance(30_000);
  return context;
}

describe('CircuitBreaker closed (docs/ORCHESTRATION.md 4)', () => {
  it('starts closed and lets every request through', () => {
    const { breaker } = setup();
    expect(breaker.state()).toBe('closed');
    for (let n = 0; n < 30; n += 1) expect(breaker.allowRequest()).toBe(true);
  });

  it('stays closed after 4 technical failures in a row, opens at the 5th', () => {
    const { breaker } = setup();
    recordAll(breaker, times(4, 'technical_failure'));
    expect(breaker.state()).toBe('closed');
    expect(breaker.consecutiveFailures).toBe(4);
    breaker.record('technical_failure');
    expect(breaker.state()).toBe('open');
    expect(breaker.allowRequest()).toBe(false);
  });

  it.each(['success', 'declined'] as const)(
    'restarts the run of failures after a %s (a decline is the processor working)',
    (outcome) => {
      const { breaker } = setup();
      recordAll(breaker, [...times(4, 'technical_failure'), outcome, ...times(4, 'technical_failure')]);
      expect(breaker.state()).toBe('closed');
      expect(breaker.consecutiveFailures).toBe(4);
    },
  );

  it('never opens on declines alone', () => {
    const { breaker } = setup();
    recordAll(breaker, times(50, 'declined'));
    expect(breaker.state()).toBe('closed');
  });

  it('opens when 10 of the last 20 attempts within 60 s failed, without 5 in a row', () => {
    const { breaker, advance } = setup();
    // failure, success, failure, success…: the 10th failure is the 19th attempt.
    for (let n = 0; n < 18; n += 1) {
      breaker.record(n % 2 === 0 ? 'technical_failure' : 'success');
      advance(1_000);
    }
    expect(breaker.state()).toBe('closed');
    breaker.record('technical_failure');
    expect(breaker.state()).toBe('open');
  });

  it('counts only the last 20 attempts', () => {
    const { breaker } = setup();
    const fourFailures = times(4, 'technical_failure');
    // 10 failures in 21 attempts, never 5 in a row; the first has left the last 20.
    recordAll(breaker, ['technical_failure', ...times(9, 'success'), ...fourFailures, 'success', ...fourFailures, 'success']);
    breaker.record('technical_failure');
    expect(breaker.state()).toBe('closed');
    // The 11th failure makes 10 among the last 20.
    breaker.record('technical_failure');
    expect(breaker.state()).toBe('open');
  });

  it('does not count failures older than 60 s', () => {
    const { breaker, advance } = setup();
    for (let n = 0; n < 9; n += 1) {
      recordAll(breaker, ['technical_failure', 'success']);
      advance(3_000);
    }
    // 9 failures, the first at t = 0; at t = 60 s it is out of the window.
    advance(60_000 - 27_000);
    breaker.record('technical_failure');
    expect(breaker.state()).toBe('closed');
  });

  it('counts a failure just under 60 s old', () => {
    const { breaker, advance } = setup();
    for (let n = 0; n < 9; n += 1) {
      recordAll(breaker, ['technical_failure', 'success']);
      advance(3_000);
    }
    advance(60_000 - 27_000 - 1);
    breaker.record('technical_failure');
    expect(breaker.state()).toBe('open');
  });
});

describe('CircuitBreaker open', () => {
  it('stays open for 30 s, then turns half-open by the clock alone', () => {
    const { breaker, advance, clock } = setup();
    recordAll(breaker, times(5, 'technical_failure'));
    expect(breaker.openedAt).toBe(clock.ms);
    advance(29_999);
    expect(breaker.state()).toBe('open');
    expect(breaker.allowRequest()).toBe(false);
    advance(1);
    expect(breaker.state()).toBe('half_open');
  });

  it('ignores outcomes recorded while open (requests that started before it opened)', () => {
    const { breaker, advance } = setup();
    recordAll(breaker, times(5, 'technical_failure'));
    recordAll(breaker, times(5, 'success'));
    expect(breaker.state()).toBe('open');
    expect(breaker.consecutiveFailures).toBe(5);
    advance(30_000);
    expect(breaker.state()).toBe('half_open');
  });
});

describe('CircuitBreaker half-open', () => {
  it('lets the 1st, 11th and 21st request asked through, and no other', () => {
    const { breaker } = halfOpen();
    const allowed = Array.from({ length: 25 }, () => breaker.allowRequest());
    expect(allowed.flatMap((ok, index) => (ok ? [index + 1] : []))).toEqual([1, 11, 21]);
    expect(breaker.state()).toBe('half_open');
  });

  it('closes after 3 let-through requests succeed, with its history cleared', () => {
    const { breaker } = halfOpen();
    for (let n = 0; n < 2; n += 1) {
      expect(breaker.allowRequest()).toBe(true);
      breaker.record('success');
      expect(breaker.state()).toBe('half_open');
      for (let skipped = 0; skipped < 9; skipped += 1) expect(breaker.allowRequest()).toBe(false);
    }
    expect(breaker.allowRequest()).toBe(true);
    breaker.record('declined');
    expect(breaker.state()).toBe('closed');
    expect(breaker.openedAt).toBeNull();
    expect(breaker.consecutiveFailures).toBe(0);
    expect(breaker.allowRequest()).toBe(true);
    // Cleared: it takes a fresh run of 5 failures to open it again.
    recordAll(breaker, times(4, 'technical_failure'));
    expect(breaker.state()).toBe('closed');
  });

  it('opens again for 30 s when a let-through request fails', () => {
    const { breaker, advance, clock } = halfOpen();
    expect(breaker.allowRequest()).toBe(true);
    breaker.record('success');
    for (let skipped = 0; skipped < 9; skipped += 1) breaker.allowRequest();
    expect(breaker.allowRequest()).toBe(true);
    breaker.record('technical_failure');
    expect(breaker.state()).toBe('open');
    expect(breaker.openedAt).toBe(clock.ms);
    advance(29_999);
    expect(breaker.state()).toBe('open');
    advance(1);
    expect(breaker.state()).toBe('half_open');
  });

  it('starts counting requests and successes afresh at each half-open', () => {
    const { breaker, advance } = halfOpen();
    breaker.allowRequest();
    breaker.record('success');
    breaker.allowRequest();
    breaker.allowRequest();
    breaker.record('technical_failure');
    advance(30_000);
    expect(breaker.allowRequest()).toBe(true);
    breaker.record('success');
    expect(breaker.allowRequest()).toBe(false);
    breaker.record('success');
    expect(breaker.state()).toBe('half_open');
    breaker.record('success');
    expect(breaker.state()).toBe('closed');
  });
});

describe('BREAKER_RULES', () => {
  it('says the numbers of docs/ORCHESTRATION.md 4', () => {
    expect(BREAKER_RULES).toEqual({
      failuresInARow: 5,
      windowAttempts: 20,
      windowFailures: 10,
      windowMs: 60_000,
      openMs: 30_000,
      halfOpenEvery: 10,
      halfOpenSuccesses: 3,
    });
  });
});

describe('BreakerBoard', () => {
  it('keeps one breaker per connector, made on first use', () => {
    const board = new BreakerBoard({ now: () => 0 });
    expect(board.snapshot()).toEqual([]);
    expect(board.breakerFor('a')).toBe(board.breakerFor('a'));
    expect(board.breakerFor('a')).not.toBe(board.breakerFor('b'));
  });

  it('snapshots every breaker by connector id, with its state, opening time and failures in a row', () => {
    let ms = 5_000;
    const board = new BreakerBoard({ now: () => ms });
    board.breakerFor('sandbox-b').record('technical_failure');
    for (let n = 0; n < 5; n += 1) board.breakerFor('sandbox-a').record('technical_failure');
    board.breakerFor('sandbox-c');
    expect(board.snapshot()).toEqual([
      { connector: 'sandbox-a', state: 'open', openedAt: 5_000, consecutiveFailures: 5 },
      { connector: 'sandbox-b', state: 'closed', openedAt: null, consecutiveFailures: 1 },
      { connector: 'sandbox-c', state: 'closed', openedAt: null, consecutiveFailures: 0 },
    ]);
    ms += 30_000;
    expect(board.snapshot()[0]).toMatchObject({ connector: 'sandbox-a', state: 'half_open', openedAt: 5_000 });
  });

  it('answers breakerAllows for routing, unbound', () => {
    const board = new BreakerBoard({ now: () => 0 });
    for (let n = 0; n < 5; n += 1) board.breakerFor('down').record('technical_failure');
    const allows = board.allows;
    expect(allows('down')).toBe(false);
    expect(allows('up')).toBe(true);
  });
});
