import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

// The OpenAPI document as a contract: which operation a request reached, whether the status is
// documented for it, and whether the body (and required headers) match the documented response.
// Paths the document does not describe must answer 404, methods it does not describe on a
// described path 405 with Allow, both in the ErrorBoolean envelope (docs/DECISIONS.md).

export type Schema = Record<string, unknown>;
type Header = { required?: boolean; schema?: Schema };
type ResponseObject = { headers?: Record<string, Header>; content?: Record<string, { schema?: Schema }> };
export type Parameter = { name: string; in: string; required?: boolean; schema?: Schema };
export type Operation = {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses: Record<string, ResponseObject>;
  /** Rules the server checks that no schema holds (described, src/server/api/openapi/exact-requests.ts). */
  'x-validation-rules'?: { field: string; rule: string }[];
  /** false: query parameters other than the documented ones are refused. */
  'x-additional-query-parameters'?: false;
};
type PathItem = Record<string, unknown> & { servers?: { url: string }[] };
export type OpenApiDocument = {
  openapi: string;
  servers?: { url: string }[];
  paths: Record<string, PathItem>;
  components?: { schemas?: Record<string, Schema> };
};

/** One HTTP request as the contract sees it (header names in lower case). */
export type SentRequest = { method: string; url: string; headers: Record<string, string>; body?: Buffer };

/** One HTTP answer as the contract sees it (header names in lower case). */
export type Exchange = { method: string; url: string; status: number; headers: Record<string, string>; body: Buffer };

export type Route = { template: string; prefix: string; pattern: RegExp; params: string[]; item: PathItem };

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const DOCUMENT_ID = 'https://contract.test/openapi.json';
/** The envelope of answers the document cannot describe per operation (unknown path or method). */
const FALLBACK_ENVELOPE = '#/components/schemas/ErrorBoolean';

/** JSON pointer of a path inside the document (RFC 6901 escaping). */
export function pointer(...parts: string[]): string {
  return `#/${parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

function prefixOf(url: string | undefined): string {
  return url ? new URL(url).pathname.replace(/\/+$/, '') : '';
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

function isJson(media: string): boolean {
  return media === 'application/json' || media.endsWith('+json');
}

function isLuhnValid(digits: string): boolean {
  if (!/^[0-9]+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    const digit = Number(digits[digits.length - 1 - i]);
    const weighted = i % 2 === 1 ? digit * 2 : digit;
    sum += weighted > 9 ? weighted - 9 : weighted;
  }
  return sum % 10 === 0;
}

export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 8)
    .map((error) => `${error.instancePath || '/'} ${error.message ?? error.keyword} ${JSON.stringify(error.params)}`)
    .join('; ');
}

export class Contract {
  readonly routes: Route[];
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(
    readonly document: OpenApiDocument,
    /** Paths under the API prefixes that are not part of the integrator interface (operations, console). */
    private readonly outOfScope: RegExp[] = [],
  ) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    // The document's one custom format: card numbers passing the Luhn check.
    this.ajv.addFormat('luhn', { type: 'string', validate: isLuhnValid });
    this.ajv.addSchema({ ...document, $id: DOCUMENT_ID });
    const base = prefixOf(document.servers?.[0]?.url);
    // A path item with its own servers answers under each of them.
    this.routes = Object.entries(document.paths)
      .flatMap(([template, item]) => {
        const prefixes = item.servers ? item.servers.map((server) => prefixOf(server.url)) : [base];
        const params = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
        const source = template
          .split(/\{[^}]+\}/)
          .map(escapeRegExp)
          .join('([^/]+)');
        return prefixes.map((prefix) => ({
          template,
          prefix,
          pattern: new RegExp(`^${escapeRegExp(prefix)}${source}$`),
          params,
          item,
        }));
      })
      .sort((a, b) => a.params.length - b.params.length);
  }

  /** The prefixes of the document's servers ({base_url}, {auth_url}). */
  get prefixes(): string[] {
    return [...new Set(this.routes.map((route) => route.prefix))];
  }

  inScope(pathname: string): boolean {
    if (this.outOfScope.some((pattern) => pattern.test(pathname))) return false;
    return this.prefixes.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
  }

  route(pathname: string): Route | undefined {
    return this.routes.find((route) => route.pattern.test(pathname));
  }

  /** Documented methods of a path item, upper case. */
  methodsOf(route: Route): string[] {
    return METHODS.filter((method) => method in route.item).map((method) => method.toUpperCase());
  }

  /** `Allow` must be the documented methods, HEAD where GET is, and OPTIONS. */
  checkAllow(route: Route, exchange: Exchange): string[] {
    const allow = (exchange.headers['allow'] ?? '')
      .split(',')
      .map((method) => method.trim())
      .filter(Boolean)
      .sort();
    const documented = this.methodsOf(route);
    const expected = [...documented, ...(documented.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].sort();
    return allow.join() === expected.join() ? [] : [`Allow is "${allow.join(', ')}", expected ${expected.join(', ')}`];
  }

  operation(route: Route, method: string): Operation | undefined {
    return route.item[method.toLowerCase()] as Operation | undefined;
  }

  /** A validator of the schema at a JSON pointer of the document (compiled once). */
  validator(at: string): ValidateFunction {
    let validate = this.validators.get(at);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}${at}` });
      this.validators.set(at, validate);
    }
    return validate;
  }

  /** Problems of one answer; empty when it honours the document. */
  check(exchange: Exchange): string[] {
    const pathname = new URL(exchange.url).pathname;
    if (!this.inScope(pathname)) return [];
    const route = this.route(pathname);
    if (!route) return this.checkFallback(exchange, 404, 'a path the document does not describe');
    // HEAD is GET without a body; OPTIONS is 204 with the path's methods (RFC 9110 9.3.2, 9.3.7).
    if (exchange.method === 'OPTIONS') {
      const problems = exchange.status === 204 ? [] : [`OPTIONS answered ${exchange.status}, not 204`];
      return [...problems, ...this.checkAllow(route, exchange)];
    }
    const operation = this.operation(route, exchange.method === 'HEAD' ? 'GET' : exchange.method);
    if (!operation) {
      const problems = this.checkFallback(exchange, 405, `${exchange.method} is not documented on ${route.template}`);
      return [...problems, ...this.checkAllow(route, exchange)];
    }
    if (exchange.method === 'HEAD') return [];
    const status = String(exchange.status);
    const key = [status, `${status[0]}XX`, 'default'].find((candidate) => candidate in operation.responses);
    if (!key) {
      return [`status ${status} is not documented (documented: ${Object.keys(operation.responses).join(', ')})`];
    }
    const method = exchange.method.toLowerCase();
    return this.checkResponse(exchange, operation.responses[key]!, pointer('paths', route.template, method, 'responses', key));
  }

  private checkFallback(exchange: Exchange, status: number, what: string): string[] {
    if (exchange.status !== status) return [`${what}: expected ${status}, got ${exchange.status}`];
    const envelope = { 'application/json': { schema: { $ref: FALLBACK_ENVELOPE } } };
    return this.checkBody(exchange, envelope, () => FALLBACK_ENVELOPE);
  }

  private checkResponse(exchange: Exchange, response: ResponseObject, at: string): string[] {
    const problems: string[] = [];
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const value = exchange.headers[name.toLowerCase()];
      if (value === undefined) {
        if (header.required) problems.push(`required header ${name} is missing`);
        continue;
      }
      if (header.schema?.type === 'integer' && !/^-?\d+$/.test(value)) {
        problems.push(`header ${name} "${value}" is not an integer`);
      }
    }
    const schemaAt = (media: string) => `${at}${pointer('content', media, 'schema').slice(1)}`;
    return [...problems, ...this.checkBody(exchange, response.content, schemaAt)];
  }

  private checkBody(exchange: Exchange, content: ResponseObject['content'], schemaAt: (media: string) => string): string[] {
    const media = mediaType(exchange.headers['content-type']);
    if (!content) return exchange.body.length > 0 ? [`a body (${media || 'no content type'}) where none is documented`] : [];
    const documented = Object.keys(content).find((candidate) => candidate.toLowerCase() === media);
    if (!documented) return [`content type "${media}" is not documented (documented: ${Object.keys(content).join(', ')})`];
    if (!isJson(media) || !content[documented]!.schema) return [];
    let body: unknown;
    try {
      body = JSON.parse(exchange.body.toString('utf8'));
    } catch {
      return [`the body is not JSON: ${exchange.body.toString('utf8').slice(0, 200)}`];
    }
    const validate = this.validator(schemaAt(documented));
    return validate(body) ? [] : [`the body does not match the schema: ${describeErrors(validate.errors)}`];
  }
}

/** One line per violation: method, path, status and the problems. */
export function describeViolation(exchange: Exchange, problems: string[]): string {
  const url = new URL(exchange.url);
  return `${exchange.method} ${url.pathname}${url.search.slice(0, 120)} -> ${exchange.status}: ${problems.join(' | ')}`;
}
