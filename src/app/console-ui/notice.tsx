import Link from 'next/link';

/** A page's whole answer when there is nothing to show: what happened and where to go. */
export function Notice({ title, body, href, link }: { title: string; body: string; href: string; link: string }) {
  return (
    <div className="space-y-2 rounded-lg border border-slate-200 bg-white p-6">
      <h1 className="text-xl font-semibold">{title}</h1>
      <p className="text-slate-700">{body}</p>
      <Link href={href} className="text-blue-800 underline">
        {link}
      </Link>
    </div>
  );
}
