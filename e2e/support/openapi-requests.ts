import { describeErrors, pointer, type Contract, type Operation, type Route, type SentRequest } from './openapi-contract';

// The request side of the OpenAPI document: whether the document allows a request, and whether a
// 400 the server gave is one the document forbids or describes. Both directions of issue 12's
// "exact document": what the document allows the server accepts, what the server refuses the
// document forbids (or names among its operation's x-validation-rules).

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** A form or query string as one object; a name sent twice is not a value the document describes. */
function singleValued(params: URLSearchParams): { values: Record<string, string>; repeated: string[] } {
  const values: Record<string, string> = {};
  const repeated: string[] = [];
  for (const [name, value] of params) {
    if (name in values) repeated.push(name);
    values[name] = value;
  }
  return { values, repeated };
}

/** Whether one JSON object of `text` names a member twice (JSON.parse keeps the last silently). */
function duplicateKeys(text: string): boolean {
  const stack: Set<string>[] = [];
  // Every string is consumed whole (so braces inside strings are not seen); a key is a string before a colon.
  for (const match of text.matchAll(/"(?:[^"\\]|\\.)*"(\s*:)?|[{}]/g)) {
    const token = match[0];
    if (token === '{') stack.push(new Set());
    else if (token === '}') stack.pop();
    else if (match[1]) {
      const keys = stack.at(-1);
      const key = JSON.parse(token.slice(0, token.length - match[1].length)) as string;
      if (keys?.has(key)) return true;
      keys?.add(key);
    }
  }
  return false;
}

export class RequestContract {
  constructor(private readonly contract: Contract) {}

  /** The documented operation a request reaches, if any. */
  locate(sent: SentRequest): { route: Route; operation: Operation; method: string } | undefined {
    const pathname = new URL(sent.url).pathname;
    if (!this.contract.inScope(pathname)) return undefined;
    const route = this.contract.route(pathname);
    if (!route) return undefined;
    const method = sent.method === 'HEAD' ? 'get' : sent.method.toLowerCase();
    const operation = this.contract.operation(route, method);
    return operation ? { route, operation, method } : undefined;
  }

  /** Why the document refuses this request; empty when the document allows it. */
  problems(sent: SentRequest): string[] {
    const found = this.locate(sent);
    if (!found) return ['the document describes no such operation'];
    const { route, operation, method } = found;
    const url = new URL(sent.url);
    const problems: string[] = [];
    const match = route.pattern.exec(url.pathname)!;
    const pathValues = Object.fromEntries(route.params.map((name, index) => [name, match[index + 1]!]));
    const query = singleValued(url.searchParams);
    problems.push(...query.repeated.map((name) => `query parameter ${name} is sent more than once`));
    const parameters = operation.parameters ?? [];
    parameters.forEach((parameter, index) => {
      const at = pointer('paths', route.template, method, 'parameters', String(index), 'schema');
      let value: string | undefined;
      if (parameter.in === 'path') {
        value = decoded(pathValues[parameter.name] ?? '');
        if (value === undefined) return problems.push(`path parameter ${parameter.name} is not percent-encoded UTF-8`);
      } else if (parameter.in === 'query') value = query.values[parameter.name];
      else if (parameter.in === 'header') value = sent.headers[parameter.name.toLowerCase()];
      if (value === undefined) {
        if (parameter.required || parameter.in === 'path')
          problems.push(`${parameter.in} parameter ${parameter.name} is missing`);
        return;
      }
      if (!parameter.schema) return;
      const validate = this.contract.validator(at);
      if (!validate(value)) problems.push(`${parameter.in} parameter ${parameter.name}: ${describeErrors(validate.errors)}`);
    });
    if (operation['x-additional-query-parameters'] === false) {
      const documented = new Set(parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name));
      for (const name of Object.keys(query.values))
        if (!documented.has(name)) problems.push(`query parameter ${name} is not documented`);
    }
    problems.push(...this.bodyProblems(sent, operation, pointer('paths', route.template, method, 'requestBody')));
    return problems;
  }

  private bodyProblems(sent: SentRequest, operation: Operation, at: string): string[] {
    const content = operation.requestBody?.content;
    const hasBody = (sent.body?.length ?? 0) > 0;
    if (!content) return [];
    if (!hasBody) return operation.requestBody?.required ? ['the required body is missing'] : [];
    const media = mediaType(sent.headers['content-type']);
    const documented = Object.keys(content).find((candidate) => candidate.toLowerCase() === media);
    if (!documented) return [`content type "${media}" is not documented`];
    // ignoreBOM keeps a leading U+FEFF, which RFC 8259 8.1 forbids in JSON sent over a network.
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    let body: unknown;
    try {
      const source = text.decode(sent.body);
      if (media === 'application/x-www-form-urlencoded') {
        const form = singleValued(new URLSearchParams(source));
        if (form.repeated.length > 0) return [`form parameters sent more than once: ${form.repeated.join(', ')}`];
        body = form.values;
      } else {
        body = JSON.parse(source) as unknown;
        if (duplicateKeys(source)) return ['a JSON object names one member twice'];
      }
    } catch {
      return [`the body is not ${media}`];
    }
    const validate = this.contract.validator(`${at}${pointer('content', documented, 'schema').slice(1)}`);
    return validate(body) ? [] : [`the body: ${describeErrors(validate.errors)}`];
  }

  /**
   * Problems of a 400 answer: none when the document refuses the request too, or when every field
   * the answer names is under a rule the operation describes (x-validation-rules).
   */
  refusalProblems(sent: SentRequest, answerText: string): string[] {
    const found = this.locate(sent);
    if (!found || this.problems(sent).length > 0) return [];
    const described = (found.operation['x-validation-rules'] ?? []).map((rule) => rule.field);
    let fields: (string | undefined)[] = [];
    try {
      fields = ((JSON.parse(answerText) as { errors?: { field?: string }[] }).errors ?? []).map((error) => error.field);
    } catch {
      // fields stays empty: nothing described explains it
    }
    const covered = (field: string | undefined) =>
      field !== undefined &&
      described.some((rule) => field === rule || field.startsWith(`${rule}.`) || field.startsWith(`${rule}[`));
    if (fields.length > 0 && fields.every(covered)) return [];
    return [`the server refused with 400 a request the document allows (${answerText.slice(0, 300)})`];
  }
}
