// What a client component of another feature may import from prices: nothing server-only.
// The SKU catalogue shows and edits each product's cost in place (features/skus).
export { listCostsAction } from "./costs/actions";
export { CostCell } from "./costs/components/cost-cell";
