import { Alert } from "@/components/ui/alert";
import type { ItemDto } from "@/lib/queues/item-schemas";

/** A reviewer sent the item back: what they asked the annotators to change. */
export function ReviewNote({ item }: { item: ItemDto }) {
  if (item.review.state !== "rejected" || item.my_state !== "completed") return null;
  return (
    <Alert tone="warning" title="A reviewer sent this item back to you">
      <span data-testid="review-note">{item.review.note}</span>
    </Alert>
  );
}
