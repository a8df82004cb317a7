/** Units over all deliveries, counted alike by the list, the mirror and the export. */
export function itemCountOf(order: { deliveries: readonly { items: readonly { quantity: number }[] }[] }): number {
  return order.deliveries.reduce((sum, delivery) => sum + delivery.items.reduce((n, item) => n + item.quantity, 0), 0);
}
