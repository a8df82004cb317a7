// The shipping feature's entry: the morning's list of orders to pack, the picking list and the
// labels PDF.
export { countShippingOrders, listShippingOrders } from "./packing.server";
export { shippingSchema } from "./selection";
export { pickingPdfResponse } from "./picking-route.server";
export { labelsResponse } from "./labels-route.server";
