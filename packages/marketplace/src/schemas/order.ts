// Spec: Resources → Order. Timestamps of what has not happened yet are null, which the spec does not say.
import { z } from "zod";
import { ORDER_STATUSES } from "../values";
import { currencySchema, objectIdSchema, timestampSchema } from "./common";

export const orderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof orderStatusSchema>;

/** Delivery states named by `order.delivery` notifications. */
export const deliveryStatusSchema = z.enum(["created", "received", "posted", "delivered"]);
export type DeliveryStatus = z.infer<typeof deliveryStatusSchema>;

export const phoneSchema = z.object({ area_code: z.string(), country_code: z.string(), number: z.string() });
export type Phone = z.infer<typeof phoneSchema>;

export const customerTypeSchema = z.enum(["cpf", "cnpj"]);

export const customerSchema = z.object({
  birth_date: z.iso.date(),
  customer_type: customerTypeSchema,
  document_number: z.string(),
  email: z.string(),
  name: z.string(),
  phones: z.array(phoneSchema),
});
export type Customer = z.infer<typeof customerSchema>;

export const paymentSchema = z.object({
  gateway: z.object({ document: z.string() }),
  description: z.string(),
  installments: z.number().int(),
  method: z.string(),
  currency: currencySchema,
  normalizer: z.number().int().positive(),
  amount: z.number().int(),
});
export type Payment = z.infer<typeof paymentSchema>;

const sharedAmountSchema = z.object({
  currency: currencySchema,
  normalizer: z.number().int().positive(),
  total: z.number().int(),
  shared: z.number().int(),
});

export const orderAmountsSchema = z.object({
  currency: currencySchema,
  normalizer: z.number().int().positive(),
  total: z.number().int(),
  discount: sharedAmountSchema,
  freight: sharedAmountSchema,
  comission: z.object({
    currency: currencySchema,
    normalizer: z.number().int().positive(),
    type: z.string(),
    total: z.number().int(),
  }),
});
export type OrderAmounts = z.infer<typeof orderAmountsSchema>;

/** Spec: an item's `comission` has `value` instead of `total`; whether it keeps `currency` is not shown. */
export const itemAmountsSchema = orderAmountsSchema.extend({
  comission: z.object({
    currency: currencySchema.optional(),
    normalizer: z.number().int().positive(),
    type: z.string(),
    value: z.number().int(),
  }),
});

const measureSchema = z.object({ value: z.number(), unit: z.string() });

export const deliveryItemSchema = z.object({
  sequencial: z.number().int(),
  amounts: itemAmountsSchema,
  info: z.object({
    sku: z.string(),
    id: z.string(),
    name: z.string(),
    description: z.string(),
    images: z.array(z.string()),
    attributes: z.array(z.object({ name: z.string(), value: z.string() })),
    extras: z.record(z.string(), z.unknown()),
    dimensions: z.object({ height: measureSchema, width: measureSchema, length: measureSchema, weight: measureSchema }),
  }),
  unit_price: z.object({ currency: currencySchema, normalizer: z.number().int().positive(), value: z.number().int() }),
  measure_unit: z.string(),
  quantity: z.number().int(),
});
export type DeliveryItem = z.infer<typeof deliveryItemSchema>;

export const addressSchema = z.object({
  zipcode: z.string(),
  street: z.string(),
  number: z.string(),
  district: z.string(),
  city: z.string(),
  state: z.string(),
  country: z.string(),
  complement: z.string(),
  reference: z.string(),
});

const timeLimitSchema = z.object({
  value: z.number().int(),
  precision: z.string(),
  workday: z.boolean(),
  limit_date: timestampSchema,
});

export const shippingSchema = z.object({
  posting_date: timestampSchema.nullable(),
  delivery_date: timestampSchema.nullable(),
  labels: z.object({ requested_at: timestampSchema, generated_at: timestampSchema, url: z.string() }),
  tracking: z.object({ number: z.string(), label_id: z.string(), url: z.string() }),
  recipient: z.object({
    customer_type: customerTypeSchema,
    document_number: z.string(),
    email: z.string(),
    name: z.string(),
    phones: z.array(phoneSchema),
    address: addressSchema,
  }),
  pickup_details: z.object({
    agency_id: z.string(),
    agency_company: z.string(),
    method: z.string(),
    id: z.string(),
    company_name: z.string(),
    email: z.string(),
    postal_code: z.string(),
    address: z.string(),
    number: z.string(),
    complement: z.string(),
    district: z.string(),
    city: z.string(),
    state: z.string(),
    phone: z.string(),
    latitude: z.number(),
    longitude: z.number(),
  }),
  handling_time: timeLimitSchema,
  deadline: timeLimitSchema,
});
export type Shipping = z.infer<typeof shippingSchema>;

export const deliverySchema = z.object({
  id: objectIdSchema,
  status: z.string(),
  items: z.array(deliveryItemSchema),
  shipping: shippingSchema,
});
export type Delivery = z.infer<typeof deliverySchema>;

export const orderSchema = z.object({
  id: objectIdSchema,
  status: orderStatusSchema,
  created_at: timestampSchema,
  approved_at: timestampSchema.nullable(),
  purchased_at: timestampSchema,
  updated_at: timestampSchema,
  customer: customerSchema,
  payments: z.array(paymentSchema),
  amounts: orderAmountsSchema,
  deliveries: z.array(deliverySchema),
});
export type Order = z.infer<typeof orderSchema>;

/** What the mirror keeps, validated alone: an order is kilobytes, and processing reads thousands a minute. */
export const orderSummarySchema = z.object({
  id: objectIdSchema,
  status: orderStatusSchema,
  created_at: timestampSchema,
  approved_at: timestampSchema.nullable(),
  updated_at: timestampSchema,
  // E-mail and document are search keys only (issue 42): a malformed one is dropped, the order still mirrored.
  customer: z.object({
    name: z.string(),
    email: z.string().optional().catch(undefined),
    document_number: z.string().optional().catch(undefined),
  }),
  amounts: orderAmountsSchema.pick({ currency: true, normalizer: true, total: true, freight: true, comission: true }),
  deliveries: z.array(
    z.object({
      id: objectIdSchema,
      status: z.string(),
      items: z.array(
        z.object({
          quantity: z.number().int(),
          // Only a label (lib/catalogue/product-names.server.ts): a malformed one is dropped, the order still mirrored.
          info: z.object({ sku: z.string(), name: z.string() }).optional().catch(undefined),
          // For sales by product (issue 42): without it the item counts its units, not its revenue.
          unit_price: z
            .object({ value: z.number().int(), currency: z.string(), normalizer: z.number().int().positive() })
            .optional()
            .catch(undefined),
        }),
      ),
      shipping: z.object({
        handling_time: z.object({ limit_date: timestampSchema }),
        // For search and sales by state (issue 42): optional, as the label name is.
        tracking: z.object({ number: z.string() }).optional().catch(undefined),
        recipient: z
          .object({ address: z.object({ state: z.string() }) })
          .optional()
          .catch(undefined),
      }),
    }),
  ),
});
export type OrderSummary = z.infer<typeof orderSummarySchema>;

/** Query of `GET /v1.0/marketplace/orders` as named by the spec (Endpoint 9). */
export const orderSortSchema = z.enum(["created_at:asc", "created_at:desc", "updated_at:asc", "updated_at:desc"]);
