'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';

export type NavLink = { href: string; label: string };

/** Whether a section's link leads to the page shown (its own path or one below it). */
function current(pathname: string, href: string): boolean {
  return href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`);
}

/**
 * The console's sections: a row of links from the md breakpoint up; below it, a menu button that
 * shows them as a list (aria-expanded, aria-controls). Opening moves the focus to the first link;
 * Escape closes the list and gives the focus back to the button; following a link closes it.
 */
export function ConsoleNav({ links, label, menu }: { links: NavLink[]; label: string; menu: string }) {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const [shownFor, setShownFor] = useState(pathname);
  // A new page closes the list (the state is reset while rendering, as React advises, not in an effect).
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }
  useEffect(() => {
    if (open) list.current?.querySelector('a')?.focus();
  }, [open]);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return;
    setOpen(false);
    button.current?.focus();
  };
  return (
    <div className="contents" onKeyDown={onKeyDown}>
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls="console-sections"
        data-testid="nav-menu"
        className="ml-auto rounded-md border border-slate-300 px-3 py-1 text-sm hover:bg-slate-100 md:hidden"
        onClick={() => setOpen((was) => !was)}
      >
        <span aria-hidden="true">☰ </span>
        {menu}
      </button>
      <nav
        id="console-sections"
        aria-label={label}
        className={`${open ? 'block' : 'hidden'} order-last w-full text-sm md:order-none md:block md:w-auto`}
      >
        <ul ref={list} className="flex flex-col gap-1 md:flex-row md:flex-wrap">
          {links.map((link) => (
            <li key={link.href}>
              <Link
                href={link.href}
                aria-current={current(pathname, link.href) ? 'page' : undefined}
                className="block rounded px-2 py-1 whitespace-nowrap hover:bg-slate-100 aria-[current=page]:bg-slate-100 aria-[current=page]:font-semibold"
                onClick={() => setOpen(false)}
              >
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
