import { pricingSettings } from "@/features/prices/costs/product-costs.server";
import { CommissionRateForm } from "@/features/prices/costs/components/commission-rate-form";
import { PriceGuardForm } from "@/features/prices/guard/components/price-guard-form";

/**
 * The price guard's limit and the commission rate margins use, as Settings shows them: read and
 * rendered here, so the settings page imports one server component and no client module of prices.
 */
export async function PricingSettings({ shopId }: { shopId: string }) {
  const pricing = await pricingSettings(shopId);
  return (
    <>
      <PriceGuardForm limitPercent={pricing.limitPercent} />
      <CommissionRateForm manualBps={pricing.commission.manualBps} learned={pricing.commission.learned} />
    </>
  );
}
