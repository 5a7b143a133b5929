import { useVendor } from '@ledgerline/api';
import { Link } from 'react-router';

/** A transaction's vendor, linking to it in Transactions → Vendors (`?tab=vendors&vendor=<id>`). */
export function VendorLink({ id }: { id: string }) {
  const vendor = useVendor(id);
  return (
    <Link to={`/transactions?tab=vendors&vendor=${encodeURIComponent(id)}`} className="text-brand-700 hover:underline dark:text-brand-300">
      {vendor.data?.name ?? 'Open vendor'}
    </Link>
  );
}
