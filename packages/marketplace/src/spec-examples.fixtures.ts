// The spec gives bodies as field tables, not JSON: each fixture writes one out with every field it
// lists and the values it names (placeholders where it names only a type), citing its section.

const ORDER_ID = "65f1a2b3c4d5e6f708192a3b";
const DELIVERY_ID = "65f1a2b3c4d5e6f708192a3c";
const PRICE_ID = "65f1a2b3c4d5e6f708192a3d";
const SKU_ID = "65f1a2b3c4d5e6f708192a3e";

// Authentication

/** Resources → Access token response; Endpoints → 2. Token exchange: `{access_token, token_type}`, token_type "Always `Bearer`". */
export const tokenResponse = { access_token: "an-access-token", token_type: "Bearer" };

/** Errors → Token exchange errors (HTTP 400, JSON `{error}`): one body per value of the table. */
export const tokenErrorResponses = [
  { error: "invalid_request" },
  { error: "invalid_client" },
  { error: "invalid_grant" },
  { error: "unauthorized_client" },
  { error: "unsupported_grant_type" },
  { error: "invalid_scope" },
];

/** Errors → Authorization request errors: the values of `error` in the redirect. */
export const authorizationErrors = [
  "invalid_request",
  "unauthorized_client",
  "access_denied",
  "unsupported_response_type",
  "invalid_scope",
  "temporarily_unavailable",
  "server_error",
];

/** Resources → basic_user_info result; Endpoints → 3: "JSON object with `user_name`, `user_email`". */
export const basicUserInfo = { user_name: "Ana Souza", user_email: "ana.souza@example.com" };

/** Authentication → Scopes: the Scope column. */
export const scopes = [
  "basic_user_info",
  "conversations-seller:write",
  "conversations-seller:read",
  "autoupload",
  "portfolio:write",
  "portfolio:read",
  "order-order:write",
  "order-order:read",
  "order-delivery:read",
  "order-delivery:write",
  "tickets-write",
  "tickets-read",
];

// SKUs

/** Resources → SKU (request body of create): only the required fields, each "when none" value as the table gives it. */
export const skuCreateMinimal = {
  code: "CAM-001",
  title: { pt_BR: "Camiseta" },
  variation_key: "",
  condition: "new",
  brand: "Marca",
  tags: [],
  available: true,
  origin: "national",
  datasheet: {},
  dimensions: [
    {
      name: "package",
      height: { value: 3, unit: "cm" },
      width: { value: 25, unit: "cm" },
      length: { value: 30, unit: "cm" },
      weight: { value: 0.2, unit: "kg" },
    },
  ],
  description: {},
  identifiers: [],
  attributes: {},
  medias: [],
  extras: {},
};

/** Resources → SKU (request body of create): every field of the table, optional ones included. */
export const skuCreateFull = {
  code: "CAM-001-M",
  title: { pt_BR: "Camiseta azul", en_US: "Blue T-shirt" },
  variation_key: "CAM-001",
  condition: "new",
  brand: "Marca",
  tags: ["camiseta", "algodão"],
  available: true,
  origin: "imported",
  datasheet: { reference: "https://example.com/ficha.pdf" },
  dimensions: [
    {
      name: "product",
      height: { value: "2.5", unit: "cm" },
      width: { value: 50, unit: "cm" },
      length: { value: 0.7, unit: "m" },
      weight: { value: 180, unit: "g" },
    },
    {
      name: "package",
      height: { value: 3, unit: "cm" },
      width: { value: 25, unit: "cm" },
      length: { value: 30, unit: "cm" },
      weight: { value: 0.2, unit: "kg" },
    },
  ],
  description: {
    pt_BR: { verbose_value: "Camiseta de algodão.", simplified_value: "" },
    en_US: { verbose_value: "Cotton T-shirt.", simplified_value: "T-shirt" },
  },
  identifiers: [
    { type: "EAN", value: "7891000315507" },
    { type: "NCM", value: "61091000" },
  ],
  attributes: {
    variant: [{ name: "Tamanho", value: "M", display: { pt_BR: { name: "Tamanho", value: "Médio", simplified_value: "M" } } }],
    optional: [{ name: "Cor", value: "Azul" }],
  },
  medias: [{ name: "frente", type: "image", reference: "https://example.com/frente.jpg" }],
  extras: {},
};

/** Resources → SKU import response; Errors → SKU import status codes (statusCode 0). */
export const skuImportResponse = {
  token: "an-import-token",
  id: SKU_ID,
  sku: skuCreateFull.code,
  statusCode: 0,
  statusMessage: "The sku was imported and will be processed",
  errors: [],
  data: skuCreateFull,
};

/** Errors → SKU import status codes: every row, statusCode and statusMessage. */
export const skuStatusCodes = [
  { statusCode: 0, statusMessage: "The sku was imported and will be processed" },
  { statusCode: -1, statusMessage: "Unexpected error" },
  { statusCode: -2, statusMessage: "The request was blocked" },
  { statusCode: -3, statusMessage: "There is no sku to import" },
  { statusCode: -4, statusMessage: "An sku had problems on import" },
  { statusCode: -5, statusMessage: "Import is down" },
  { statusCode: -6, statusMessage: "Without permission" },
];

// Prices

/** Resources → Price: the fields required on create; `extras` "send `{}` when none". */
export const priceCreateBody = { type: "sell", sku: "CAM-001", value: 4990, currency: "BRL", normalizer: 100, extras: {} };

/** Resources → Price: "Stored/returned price fields". */
export const price = {
  id: PRICE_ID,
  sku: "CAM-001",
  type: "sell",
  value: 4990,
  currency: "BRL",
  normalizer: 100,
  extras: {},
  created_at: "2026-05-01T12:00:00.000Z",
};

/** Resources → Price create response: "On success `statusCode` is 0 and the message says the price was imported and processed". */
export const priceCreateResponse = {
  token: "an-import-token",
  id: PRICE_ID,
  statusCode: 0,
  statusMessage: "The price was imported and processed",
  errors: [],
  data: price,
};

/** Endpoints → 6. Retrieve a price: "price object with `priceHistory`" ("Fields of a `priceHistory` item: not shown"). */
export const priceWithHistory = { ...price, priceHistory: [] };

/** Endpoints → 7. List prices; Limits: "the price list example reports 50" as `max_limit`. */
export const priceListResponse = { meta: { page: { limit: 50, offset: 0, count: 1, max_limit: 50 } }, results: [price] };

// Orders

const money = (total: number) => ({ currency: "BRL", normalizer: 100, total });
const phone = { area_code: "11", country_code: "55", number: "912345678" };
const measure = (value: number, unit: string) => ({ value, unit });
const timeLimit = { value: 2, precision: "days", workday: true, limit_date: "2026-05-03T12:00:00.000Z" };

/** Resources → Order, Delivery item, Delivery shipping: every field of the three tables. */
export const order = {
  id: ORDER_ID,
  status: "approved",
  created_at: "2026-05-01T12:00:00.000Z",
  approved_at: "2026-05-01T12:05:00.000Z",
  purchased_at: "2026-05-01T12:00:00.000Z",
  updated_at: "2026-05-01T12:05:00.000Z",
  customer: {
    birth_date: "1990-04-12",
    customer_type: "cpf",
    document_number: "12345678909",
    email: "cliente@example.com",
    name: "João da Silva",
    phones: [phone],
  },
  payments: [
    {
      gateway: { document: "gw-123" },
      description: "Cartão de crédito",
      installments: 3,
      method: "credit_card",
      currency: "BRL",
      normalizer: 100,
      amount: 10980,
    },
  ],
  amounts: {
    ...money(10980),
    discount: { ...money(0), shared: 0 },
    freight: { ...money(1000), shared: 0 },
    // "`type` (string, for instance `value`)"
    comission: { ...money(1200), type: "value" },
  },
  deliveries: [
    {
      id: DELIVERY_ID,
      status: "delivered",
      items: [
        {
          sequencial: 1,
          // One reading of the item `comission` (currency kept); orderItemComissionAsListed is the other.
          amounts: {
            ...money(9980),
            discount: { ...money(0), shared: 0 },
            freight: { ...money(1000), shared: 0 },
            comission: { currency: "BRL", normalizer: 100, type: "value", value: 1200 },
          },
          info: {
            sku: "CAM-001",
            id: "65f1a2b3c4d5e6f708192a3e",
            name: "Camiseta",
            description: "Camiseta de algodão",
            images: ["https://example.com/frente.jpg"],
            attributes: [{ name: "Tamanho", value: "M" }],
            extras: {},
            dimensions: { height: measure(3, "cm"), width: measure(25, "cm"), length: measure(30, "cm"), weight: measure(0.2, "kg") },
          },
          unit_price: { currency: "BRL", normalizer: 100, value: 4990 },
          // "for instance `PC`"
          measure_unit: "PC",
          quantity: 2,
        },
      ],
      shipping: {
        posting_date: "2026-05-02T09:00:00.000Z",
        delivery_date: "2026-05-04T15:00:00.000Z",
        labels: {
          requested_at: "2026-05-01T13:00:00.000Z",
          generated_at: "2026-05-01T13:01:00.000Z",
          url: "https://example.com/label.pdf",
        },
        tracking: { number: "BR123456789", label_id: "LBL-1", url: "https://example.com/track/BR123456789" },
        recipient: {
          customer_type: "cpf",
          document_number: "12345678909",
          email: "cliente@example.com",
          name: "João da Silva",
          phones: [phone],
          address: {
            zipcode: "01310-100",
            street: "Avenida Paulista",
            number: "1000",
            district: "Bela Vista",
            city: "São Paulo",
            state: "SP",
            country: "BR",
            complement: "apto 12",
            reference: "perto do metrô",
          },
        },
        pickup_details: {
          agency_id: "AG-1",
          agency_company: "Correios",
          method: "pickup",
          id: "PK-1",
          company_name: "Agência Paulista",
          email: "agencia@example.com",
          postal_code: "01310-100",
          address: "Avenida Paulista",
          number: "900",
          complement: "",
          district: "Bela Vista",
          city: "São Paulo",
          state: "SP",
          phone: "1133334444",
          latitude: -23.5614,
          longitude: -46.6559,
        },
        handling_time: timeLimit,
        deadline: { ...timeLimit, value: 5, limit_date: "2026-05-06T12:00:00.000Z" },
      },
    },
  ],
};

/** Resources → Delivery item, `amounts`: the item `comission` read literally, without `currency`. */
export const orderItemComissionAsListed = {
  ...order,
  deliveries: order.deliveries.map((delivery) => ({
    ...delivery,
    items: delivery.items.map((item) => ({
      ...item,
      amounts: { ...item.amounts, comission: { normalizer: 100, type: "value", value: 1200 } },
    })),
  })),
};

/** Endpoints → 9. List orders: a middle page, so that all three links exist. */
export const orderListResponse = {
  meta: {
    page: { limit: 1, offset: 1, count: 1, max_limit: 200 },
    links: { previous: "?_offset=0&_limit=1", self: "?_offset=1&_limit=1", next: "/v1.0/marketplace/orders?_offset=2&_limit=1" },
  },
  results: [order],
};

/** Endpoints → Generic list rules, point 5: `meta` with applied filters, sorting and `total`. */
export const listResponseWithAppliedQuery = {
  meta: {
    page: { limit: 50, offset: 0, count: 1, max_limit: 200 },
    links: { previous: null, self: "?status__in=new,approved&_offset=0&_limit=50", next: null },
    filters: [
      { field: "status", operator: "in", value: ["new", "approved"] },
      { field: "updated_at", operator: "gte", value: "2026-05-01T00:00:00Z" },
    ],
    sort: [{ field: "updated_at", direction: "desc" }],
    total: 1,
  },
  results: [order],
};

// List queries (Endpoints → Generic list rules; 7. List prices; 9. List orders)

/** Generic list rules, point 3: the Form column, with the operator each means. */
export const filterForms = [
  { query: "?field=value", field: "field", operator: "eq", value: "value" },
  { query: "?field__like=value", field: "field", operator: "like", value: "value" },
  { query: "?field__in=v1,v2", field: "field", operator: "in", value: ["v1", "v2"] },
  { query: "?field__gt=value", field: "field", operator: "gt", value: "value" },
  { query: "?field__gte=value", field: "field", operator: "gte", value: "value" },
  { query: "?field__lt=value", field: "field", operator: "lt", value: "value" },
  { query: "?field__lte=value", field: "field", operator: "lte", value: "value" },
] as const;

/** Generic list rules, point 2: `_sort=<field>:asc` or `<field>:desc`, comma separated; no direction sorts ascending. */
export const sortForms = [
  { sort: "created_at:asc", criteria: [{ field: "created_at", direction: "asc" }] },
  { sort: "created_at:desc", criteria: [{ field: "created_at", direction: "desc" }] },
  { sort: "created_at", criteria: [{ field: "created_at" }] },
  {
    sort: "updated_at:desc,created_at",
    criteria: [{ field: "updated_at", direction: "desc" }, { field: "created_at" }],
  },
] as const;

/** 9. List orders: the values `_sort` takes. */
export const orderSortValues = ["created_at:asc", "created_at:desc", "updated_at:asc", "updated_at:desc"] as const;

/** 9. List orders: one request with every query parameter of the table. */
export const orderListQuery =
  "status=approved&id=65f1a2b3c4d5e6f708192a3b&updated_at__ge=2026-05-01T00:00:00.000Z&updated_at__le=2026-05-31T23:59:59.999Z&_sort=updated_at:desc&_limit=50&_offset=0";

/** 7. List prices: one request with every query parameter the endpoint names. */
export const priceListQuery = "sku=CAM-001&type=sell&_sort=created_at:desc&_limit=50&_offset=0";

/** 9. List orders: link values, "relative query strings or paths carrying `_offset` and `_limit`". */
export const linkForms = [
  { link: "?_offset=50&_limit=50", path: null, offset: 50, limit: 50 },
  { link: "/v1.0/marketplace/orders?_offset=50&_limit=50", path: "/v1.0/marketplace/orders", offset: 50, limit: 50 },
] as const;

// Events and the callback URL

/** Events → Message shape: the reference structure (`domain`, `status`, `order_id`, `delivery_id`). */
export const webhookReferenceMessage = {
  data: { domain: "order.delivery", status: "posted", order_id: ORDER_ID, delivery_id: DELIVERY_ID },
};

/** Events → Domains and statuses: "an example uses domain `order`" (and status `new`). */
export const webhookOrderDomainMessage = { data: { domain: "order", status: "new", order_id: ORDER_ID } };

/** Events → Message shape: "the described common fields are `domain`, `status`, `id` ... and `code`". */
export const webhookCommonFieldsMessage = { data: { domain: "portfolio.sku", status: "created", id: SKU_ID, code: "CAM-001" } };

/** Events → Domains and statuses: the table, domain → allowed status values. */
export const webhookDomains: Record<string, readonly string[]> = {
  "order.order": ["approved", "cancelled", "finished", "new"],
  "order.delivery": ["created", "received", "posted", "delivered"],
  "order.shipping": ["shipped", "delivered"],
  "portfolio.sku": ["created"],
  "portfolio.ad": ["created", "updated", "highlighted"],
  "portfolio.price": ["created", "updated"],
  "portfolio.inventory": ["created", "updated", "increased", "decreased"],
  chat: ["new_conversation", "message_received"],
  ticket: ["opened", "closed", "updated"],
};

/** Endpoints → 10. Webhook callback URL: the POST body and the three success responses. */
export const webhookUrl = {
  setBody: { url: "https://integrator.example.com/webhooks" },
  setResponse: { message: "Webhook URL saved", url: "https://integrator.example.com/webhooks" },
  getResponse: { url: "https://integrator.example.com/webhooks" },
  deleteResponse: { message: "Webhook URL removed" },
};
