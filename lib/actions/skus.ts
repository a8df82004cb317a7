"use server";

import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import { failed, succeeded } from "@/lib/actions/action-state";
import type { ActionState, FieldErrors } from "@/lib/actions/action-state";
import { requireShop } from "@/lib/auth/session";
import { recordAudit } from "@/lib/data/audit";
import { shopPath } from "@/lib/shops/paths";
import { withPlatform } from "@/lib/data/platform";
import { recordImportedSku } from "@/lib/data/skus";
import { skuCreateSchema } from "@/lib/marketplace/schemas/sku";
import type { ImportError, SkuCreateInput } from "@/lib/marketplace/schemas/sku";
import { describeProblem } from "@/lib/platform-problem";
import { skuIssuesToImportErrors } from "@/lib/skus/sku-form";

/** statusCode 0; `alreadyExisted` when the platform answered an existing SKU (HTTP 200). */
export interface ImportedSku {
  id: string;
  code: string;
  token: string;
  statusMessage: string;
  alreadyExisted: boolean;
}

/** statusCode -1 … -6: the platform's import response, explained by the form. */
export interface RejectedImport {
  statusCode: number;
  statusMessage: string;
  token: string;
}

/**
 * The outcome of one submission. The form keeps what the seller typed in its own state, so no
 * outcome carries it back. `fieldErrors` keep the platform's body paths (`title.pt_BR`), from
 * the platform's import response (`data` says which) or from the shared schema here (no `data`:
 * nothing was sent); the form maps them onto its fields. `problem`: the call failed before an
 * import response (reconnect, missing scope, or an error).
 */
export type CreateSkuState = ActionState<ImportedSku, RejectedImport>;

function byField(errors: readonly ImportError[]): FieldErrors {
  const grouped: FieldErrors = {};
  for (const { field, message } of errors) {
    const messages = (grouped[field] ??= []);
    if (!messages.includes(message)) messages.push(message);
  }
  return grouped;
}

/**
 * Creates a SKU (spec: Endpoint 4). The form sends the SKU create body itself (typed for the
 * form; checked here with the same schema as the form's and the platform's, since anything can
 * call an action). Its own messages are in the request's language; the platform's (statusMessage,
 * errors[].message) stay as the platform sent them.
 */
export async function createSkuAction(shopId: string, _previous: CreateSkuState, input: SkuCreateInput): Promise<CreateSkuState> {
  const { shop: seller, person } = await requireShop(shopId, "skus.change");
  const [t, validationWords, problemWords] = await Promise.all([getTranslations("skus.action"), getTranslations("skus.validation"), getTranslations("problems")]);

  const parsed = skuCreateSchema.safeParse(input);
  if (!parsed.success) {
    return failed(t("invalid"), { fieldErrors: byField(skuIssuesToImportErrors(parsed.error, validationWords)) });
  }
  const sku = parsed.data;

  // withPlatform turns a 401 into "reconnect" and a 403 (statusCode -6) into the missing
  // portfolio scopes, and records both on the connection.
  const result = await withPlatform(seller, "createSku", (client) => client.createSku(sku));
  if (!result.ok) return failed(describeProblem(result.problem, problemWords, "createSkus"), { problem: result.problem });
  const response = result.data;

  if (response.statusCode === 0 && response.id) {
    // HTTP 200 is the platform's "already exists, nothing created" (spec: 4. Create SKU); an id
    // the catalogue already holds says the same when a proxy hid the status.
    const { created } = await recordImportedSku(seller.id, { id: response.id, importToken: response.token, sku });
    if (created) await recordAudit({ sellerId: seller.id, person, action: "sku.create", subject: response.sku ?? sku.code, after: { title: sku.title.pt_BR ?? null } });
    revalidatePath(shopPath(seller.id, "/skus"));
    return succeeded(response.statusMessage, {
      id: response.id,
      code: response.sku ?? sku.code,
      token: response.token,
      statusMessage: response.statusMessage,
      alreadyExisted: response.httpStatus === 200 || !created,
    });
  }
  return failed(response.statusMessage, {
    fieldErrors: byField(response.errors),
    data: { statusCode: response.statusCode, statusMessage: response.statusMessage, token: response.token },
  });
}
