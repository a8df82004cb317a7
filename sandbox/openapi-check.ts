// Checks answers and notification bodies against the OpenAPI document, with ajv's draft 2020-12
// validator (OpenAPI 3.1's dialect). Test-only: ajv is a dev dependency, and the sandbox never imports this.
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { JsonObject } from "./openapi";

/** Where the document is registered in ajv: every `$ref` of the document resolves inside it. */
const DOCUMENT_ID = "urn:sandbox:openapi";

interface OperationEntry {
  method: string;
  template: string;
  pattern: RegExp;
  pointer: string;
  operation: JsonObject;
}

/** What a check looked at: the operation (when one matched) and anything wrong with the answer. */
export interface ResponseCheck {
  /** `GET /v1.0/marketplace/orders/{id}`, or null when the document has no such operation. */
  operation: string | null;
  /** `GET /v1.0/marketplace/orders/{id} 200`: the declared response used, for the coverage report. */
  response: string | null;
  problems: string[];
}

export interface CheckedAnswer {
  method: string;
  url: string;
  status: number;
  headers: Headers;
  body: string;
}

const escapePointer = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");

function describeErrors(errors: readonly ErrorObject[] | null | undefined, limit = 8): string[] {
  const lines = (errors ?? []).map((error) => `${error.instancePath || "(body)"} ${error.message ?? "is invalid"}${describeParams(error)}`);
  const unique = [...new Set(lines)];
  return unique.length > limit ? [...unique.slice(0, limit), `… and ${unique.length - limit} more`] : unique;
}

function describeParams(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if ("additionalProperty" in params) return `: ${String(params.additionalProperty)}`;
  if ("allowedValues" in params) return `: ${JSON.stringify(params.allowedValues)}`;
  if ("allowedValue" in params) return `: ${JSON.stringify(params.allowedValue)}`;
  return "";
}

/** `/v1.0/orders/{id}` → a pattern matching `/v1.0/orders/<anything but a slash>`. */
function pathPattern(template: string): RegExp {
  const literal = template.split(/\{[^}/]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${literal.join("[^/]+")}$`);
}

function mediaType(contentType: string | null): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

export class OpenApiChecker {
  /** Stops at the first error: fast, for the answers that match (nearly all of them). */
  private readonly ajv: Ajv2020;
  /** Collects every error, compiled only for an answer that does not match, to say why. */
  private readonly explainer: Ajv2020;
  private readonly operations: OperationEntry[] = [];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: JsonObject) {
    // Not strict: the document is registered whole, and its OpenAPI keywords (paths, components…)
    // are not JSON Schema keywords. Its validity as OpenAPI is sandbox/openapi.test.ts's business.
    this.ajv = new Ajv2020({ strict: false });
    this.explainer = new Ajv2020({ strict: false, allErrors: true });
    for (const ajv of [this.ajv, this.explainer]) {
      addFormats(ajv);
      ajv.addSchema(document, DOCUMENT_ID);
    }
    const paths = (document.paths ?? {}) as Record<string, Record<string, JsonObject>>;
    for (const [template, item] of Object.entries(paths)) {
      const pattern = pathPattern(template);
      for (const [method, operation] of Object.entries(item)) {
        this.operations.push({
          method: method.toUpperCase(),
          template,
          pattern,
          pointer: `/paths/${escapePointer(template)}/${method}`,
          operation,
        });
      }
    }
  }

  checkResponse(answer: CheckedAnswer): ResponseCheck {
    const method = answer.method.toUpperCase();
    const path = new URL(answer.url).pathname;
    const entry = this.operations.find((candidate) => candidate.method === method && candidate.pattern.test(path));
    if (!entry) return { operation: null, response: null, problems: [] };
    const operation = `${method} ${entry.template}`;
    const responses = (entry.operation.responses ?? {}) as Record<string, JsonObject>;
    const status = String(answer.status);
    const key = [status, `${status[0]}XX`, "default"].find((candidate) => candidate in responses);
    if (key === undefined) {
      return { operation, response: null, problems: [`status ${status} is not declared (declared: ${Object.keys(responses).join(", ")})`] };
    }
    const { value: declared, pointer } = this.resolve(responses[key]!, `${entry.pointer}/responses/${escapePointer(key)}`);
    return { operation, response: `${operation} ${key}`, problems: this.checkAgainst(declared, pointer, answer) };
  }

  /** A notification body: `data.domain` picks the webhook of the document. */
  checkNotification(body: string): string[] {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return ["the notification body is not JSON"];
    }
    const domain = (parsed as { data?: { domain?: unknown } } | null)?.data?.domain;
    const webhooks = (this.document.webhooks ?? {}) as Record<string, JsonObject>;
    if (typeof domain !== "string" || !(domain in webhooks)) return [`no webhook is declared for domain ${JSON.stringify(domain)}`];
    const pointer = `/webhooks/${escapePointer(domain)}/post/requestBody/content/application~1json/schema`;
    return this.validate(pointer, parsed).map((line) => `notification ${domain}: ${line}`);
  }

  private checkAgainst(declared: JsonObject, pointer: string, answer: CheckedAnswer): string[] {
    const problems: string[] = [];
    const headers = (declared.headers ?? {}) as Record<string, JsonObject>;
    for (const [name, definition] of Object.entries(headers)) {
      const { value } = this.resolve(definition, "");
      if (value.required === true && !answer.headers.has(name)) problems.push(`header ${name} is missing`);
    }
    const content = declared.content as Record<string, JsonObject> | undefined;
    if (!content) return problems;
    const type = mediaType(answer.headers.get("Content-Type"));
    if (!(type in content)) {
      problems.push(`Content-Type ${type || "(none)"} is not declared (declared: ${Object.keys(content).join(", ")})`);
      return problems;
    }
    if (type !== "application/json") return problems;
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      problems.push("the body is not JSON");
      return problems;
    }
    problems.push(...this.validate(`${pointer}/content/application~1json/schema`, body));
    return problems;
  }

  /** The problems of `value` against the schema at `pointer` in the document (none: it matches). */
  private validate(pointer: string, value: unknown): string[] {
    const reference = { $ref: `${DOCUMENT_ID}#${pointer}` };
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile(reference);
      this.validators.set(pointer, validate);
    }
    if (validate(value)) return [];
    const explain = this.explainer.compile(reference);
    explain(value);
    return describeErrors(explain.errors ?? validate.errors);
  }

  /** Follows a `$ref` to a response or header of the document (schemas are left to ajv). */
  private resolve(value: JsonObject, pointer: string): { value: JsonObject; pointer: string } {
    const reference = value.$ref;
    if (typeof reference !== "string") return { value, pointer };
    if (!reference.startsWith("#/")) throw new Error(`Only local references are followed, not ${reference}`);
    const target = reference
      .slice(2)
      .split("/")
      .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce<unknown>((node, segment) => (node as JsonObject | undefined)?.[segment], this.document);
    if (target === undefined || target === null || typeof target !== "object") throw new Error(`Reference ${reference} leads nowhere`);
    return this.resolve(target as JsonObject, reference.slice(1));
  }
}
