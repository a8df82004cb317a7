export { PickingListView } from "./components/picking-list-view";
export { ShippingTable } from "./components/shipping-table";
export { labelsRunResponse } from "./labels-run.server";
export { listShippingOrders } from "./packing.server";
export { loadPickingList } from "./picking-data.server";
export { labelJobsOf } from "./picking-list";
export { renderPickingPdf } from "./picking-pdf";
export { parseSelectionParams, parseSelectionSearchParams, selectionSchema, shippingSchema } from "./selection";
export { selectionSearchParams } from "./shipping-params";
