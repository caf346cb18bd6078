import Link from 'next/link';

/** The link to a list's previous or next page (its cursor is in the address). */
export function PageLink({ href, label }: { href: string; label: string }) {
  return (
    <Link href={href} className="inline-block rounded-md border border-slate-300 bg-white px-4 py-1.5 text-sm">
      {label}
    </Link>
  );
}
