import Link from 'next/link';

/** The link back to a page's list, above its heading. */
export function BackLink({ href, children }: { href: string; children: string }) {
  return (
    <p>
      <Link href={href} className="text-sm text-blue-800 underline">
        {children}
      </Link>
    </p>
  );
}
