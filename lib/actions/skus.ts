"use server";

import { revalidatePath } from "next/cache";
import { requireSeller } from "@/lib/auth/session";
import { withPlatform } from "@/lib/data/platform";
import type { PlatformProblem } from "@/lib/data/platform";
import { recordImportedSku } from "@/lib/data/skus";
import { skuCreateSchema } from "@/lib/marketplace/schemas/sku";
import type { ImportError } from "@/lib/marketplace/schemas/sku";
import { skuIssuesToImportErrors } from "@/lib/skus/sku-form";

/**
 * The outcome of one submission. The form keeps what the seller typed in its own state, so no
 * outcome carries it back; `at` tells the form that a new outcome arrived. Errors keep the
 * platform's body paths (`title.pt_BR`): the form maps them onto its fields.
 */
export type CreateSkuState =
  | { status: "idle" }
  /** statusCode 0; `alreadyExisted` when the platform answered an existing SKU (HTTP 200). */
  | { status: "imported"; at: number; id: string; code: string; token: string; statusMessage: string; alreadyExisted: boolean }
  /** statusCode -1 … -6: the platform's import response, explained by the form. */
  | { status: "rejected"; at: number; statusCode: number; statusMessage: string; token: string; errors: ImportError[] }
  /** The shared schema refused the SKU here, so nothing was sent to the platform. */
  | { status: "invalid"; at: number; errors: ImportError[] }
  /** The platform call failed before an import response: reconnect, missing scope, or an error. */
  | { status: "problem"; at: number; problem: PlatformProblem };

/**
 * Creates a SKU (spec: Endpoint 4). The SKU comes as JSON in the form field `sku` because it is
 * deeply nested; it is checked with the same schema as the form's and the platform's.
 */
export async function createSkuAction(_previous: CreateSkuState, formData: FormData): Promise<CreateSkuState> {
  const seller = await requireSeller();
  const at = Date.now();

  const text = formData.get("sku");
  if (typeof text !== "string" || text.trim() === "") {
    return { status: "invalid", at, errors: [{ field: "body", message: "The form sent no SKU. Reload the page and try again." }] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { status: "invalid", at, errors: [{ field: "body", message: "The form sent a SKU that is not valid JSON." }] };
  }
  const parsed = skuCreateSchema.safeParse(json);
  if (!parsed.success) return { status: "invalid", at, errors: skuIssuesToImportErrors(parsed.error) };
  const sku = parsed.data;

  // withPlatform turns a 401 into "reconnect" and a 403 (statusCode -6) into the missing
  // portfolio scopes, and records both on the connection.
  const result = await withPlatform(seller, "createSku", (client) => client.createSku(sku));
  if (!result.ok) return { status: "problem", at, problem: result.problem };
  const response = result.data;

  if (response.statusCode === 0 && response.id) {
    // HTTP 200 is the platform's "already exists, nothing created" (spec: 4. Create SKU); an id
    // the catalogue already holds says the same when a proxy hid the status.
    const { created } = await recordImportedSku(seller.id, { id: response.id, importToken: response.token, sku });
    revalidatePath("/skus");
    return {
      status: "imported",
      at,
      id: response.id,
      code: response.sku ?? sku.code,
      token: response.token,
      statusMessage: response.statusMessage,
      alreadyExisted: response.httpStatus === 200 || !created,
    };
  }
  return {
    status: "rejected",
    at,
    statusCode: response.statusCode,
    statusMessage: response.statusMessage,
    token: response.token,
    errors: response.errors,
  };
}
