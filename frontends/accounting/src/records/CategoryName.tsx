import { useCategories } from '@ledgerline/api';

/** A line's category by name (GET /categories, the query the pickers share), for the views of documents and credits. */
export function CategoryName({ id }: { id: string }) {
  const categories = useCategories();
  return <>{categories.data?.find((c) => c.id === id)?.name ?? (categories.isPending ? '…' : 'Unknown category')}</>;
}
