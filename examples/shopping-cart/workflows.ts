import { condition, defineSignal, defineUpdate, setHandler } from 'steadfast/workflow';

export const addItem = defineUpdate<string[], [string]>('addItem');
export const checkout = defineSignal('checkout');

/** A cart started by its first item (update-with-start); answers each item with the cart so far. */
export async function shoppingCart(customer: string): Promise<{ customer: string; items: string[] }> {
  const items: string[] = [];
  let checkedOut = false;
  setHandler(addItem, (item) => {
    items.push(item);
    return [...items];
  }, {
    validator: (item) => {
      if (item.trim() === '') throw new Error('an item needs a name');
    },
  });
  setHandler(checkout, () => {
    checkedOut = true;
  });
  await condition(() => checkedOut);
  return { customer, items };
}
