import type { APIRequestContext } from '@playwright/test';
import type { Contract } from '../../support/openapi-contract';
import { RequestContract } from '../../support/openapi-requests';
import { ORIGIN } from '../../support/service';
import { envelopeCode, problemsOf, type Answer } from './answer';
import type { FuzzRequest } from './request';

// Sends the generated requests a few at a time and records what each got and what was wrong
// with it.

const ANSWER_TIMEOUT_MS = 15_000;

export type Outcome = { request: FuzzRequest; status: number | 'no answer'; code?: string; problems: string[] };

/** Through the contract-checked Playwright client (the REST and token requests, as before). */
async function viaPlaywright(request: APIRequestContext, item: FuzzRequest): Promise<Answer> {
  const response = await request.fetch(`${ORIGIN}${item.path}`, {
    method: item.method,
    headers: item.headers,
    data: item.body,
    timeout: ANSWER_TIMEOUT_MS,
    maxRedirects: 0,
  });
  const headers = new Headers();
  for (const { name, value } of response.headersArray()) headers.append(name, value);
  const answer = { status: response.status(), headers, text: await response.text() };
  await response.dispose();
  return answer;
}

/** Through fetch, no cookie kept; the answer is checked against the OpenAPI document here (it skips what it does not cover). */
async function viaFetch(contract: Contract, item: FuzzRequest): Promise<Answer & { contractProblems: string[] }> {
  const url = `${ORIGIN}${item.path}`;
  const response = await fetch(url, {
    method: item.method,
    headers: item.headers,
    body: item.body ? new Uint8Array(item.body) : undefined,
    redirect: 'manual',
    signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
  });
  const body = Buffer.from(await response.arrayBuffer());
  const contractProblems = contract.check({
    method: item.method,
    url,
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body,
  });
  return { status: response.status, headers: response.headers, text: body.toString('utf8'), contractProblems };
}

/** A 400 the document does not explain: the document is looser than the server there. */
function refusalProblems(contract: Contract, item: FuzzRequest, text: string): string[] {
  const headers = Object.fromEntries(Object.entries(item.headers).map(([name, value]) => [name.toLowerCase(), value]));
  const sent = { method: item.method, url: `${ORIGIN}${item.path}`, headers, body: item.body };
  return new RequestContract(contract).refusalProblems(sent, text).map((problem) => `document: ${problem}`);
}

export async function send(request: APIRequestContext, contract: Contract, item: FuzzRequest): Promise<Outcome> {
  let answer: Answer;
  let contractProblems: string[] = [];
  try {
    if (item.cookieless) ({ contractProblems, ...answer } = await viaFetch(contract, item));
    else answer = await viaPlaywright(request, item);
  } catch (error) {
    return { request: item, status: 'no answer', problems: [String(error).slice(0, 200)] };
  }
  const problems = [
    ...problemsOf(item, answer),
    ...contractProblems.map((problem) => `contract: ${problem}`),
    ...(answer.status === 400 ? refusalProblems(contract, item, answer.text) : []),
  ];
  return { request: item, status: answer.status, code: envelopeCode(answer.text), problems };
}

export async function pool<T, R>(items: T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const index = next;
        next += 1;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}
