"use server";

import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import { failed, succeeded } from "@/lib/action-state";
import type { ActionState, FieldErrors } from "@/lib/action-state";
import { requireShop } from "@/lib/auth/session.server";
import { recordAudit } from "@/lib/audit/audit.server";
import { shopPath } from "@/lib/shops/paths";
import { withPlatform } from "@/lib/platform/platform.server";
import { recordImportedSku } from "@/features/skus/skus.server";
import { skuCreateSchema } from "@marketplace/api/schemas/sku";
import type { ImportError, SkuCreateInput } from "@marketplace/api/schemas/sku";
import { describeProblem } from "@/lib/platform-problem";
import { skuIssuesToImportErrors } from "@/features/skus/sku-form";

/** `alreadyExisted`: the platform answered HTTP 200, an existing SKU. */
export interface ImportedSku {
  id: string;
  code: string;
  token: string;
  statusMessage: string;
  alreadyExisted: boolean;
}

export interface RejectedImport {
  statusCode: number;
  statusMessage: string;
  token: string;
}

/** `fieldErrors` keep the platform's body paths (`title.pt_BR`); without `data`, nothing was sent. */
export type CreateSkuState = ActionState<ImportedSku, RejectedImport>;

function byField(errors: readonly ImportError[]): FieldErrors {
  const grouped: FieldErrors = {};
  for (const { field, message } of errors) {
    const messages = (grouped[field] ??= []);
    if (!messages.includes(message)) messages.push(message);
  }
  return grouped;
}

/** Checked again with the form's schema, since anything can call an action. The platform's messages stay as sent. */
export async function createSkuAction(shopId: string, _previous: CreateSkuState, input: SkuCreateInput): Promise<CreateSkuState> {
  const { shop, person } = await requireShop(shopId, "skus.change");
  const [t, validationWords, problemWords] = await Promise.all([
    getTranslations("skus.action"),
    getTranslations("skus.validation"),
    getTranslations("problems"),
  ]);

  const parsed = skuCreateSchema.safeParse(input);
  if (!parsed.success) {
    return failed(t("invalid"), { fieldErrors: byField(skuIssuesToImportErrors(parsed.error, validationWords)) });
  }
  const sku = parsed.data;

  const result = await withPlatform(shop, "createSku", (client) => client.createSku(sku));
  if (!result.ok) return failed(describeProblem(result.problem, problemWords, "createSkus"), { problem: result.problem });
  const response = result.data;

  if (response.statusCode === 0 && response.id) {
    // HTTP 200 means "already exists" (spec: 4. Create SKU); a known id says so when a proxy hid the status.
    const { created } = await recordImportedSku(shop.id, { id: response.id, importToken: response.token, sku });
    if (created)
      await recordAudit({
        shopId: shop.id,
        person,
        action: "sku.create",
        subject: response.sku ?? sku.code,
        after: { title: sku.title.pt_BR ?? null },
      });
    revalidatePath(shopPath(shop.id, "/skus"));
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
