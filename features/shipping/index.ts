// The shipping feature's entry: the morning's list of orders to pack, the picking list and the
// labels PDF.
export { labelsRunResponse } from "./labels-run.server";
export { listShippingOrders } from "./packing.server";
export { loadPickingList } from "./picking-data.server";
export { labelJobsOf } from "./picking-list";
export { renderPickingPdf } from "./picking-pdf";
export { parseSelectionParams, parseSelectionSearchParams, selectionSchema, shippingSchema } from "./selection";
export { selectionSearchParams } from "./shipping-params";
