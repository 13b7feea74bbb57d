/** Who may see an order: only the user who placed it (anyone else gets 404, not 403, so ids do not leak). */
import type { OrderRow } from '../../db/schema/index.ts';

export function canReadOrder(user: { id: string }, order: Pick<OrderRow, 'userId'>): boolean {
  return order.userId === user.id;
}
