// Button looks of the console, each with a visible keyboard focus.
export const PRIMARY_BUTTON =
  'rounded-md bg-slate-900 px-3 py-1.5 text-sm font-semibold text-white hover:bg-slate-800 focus:outline-none focus-visible:ring-4 focus-visible:ring-slate-400 disabled:opacity-60';
export const SECONDARY_BUTTON =
  'rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-100 focus:outline-none focus-visible:ring-4 focus-visible:ring-slate-300 disabled:opacity-60';
/** The yes of a destructive confirmation. */
export const DANGER_BUTTON =
  'rounded-md bg-red-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-red-800 focus:outline-none focus-visible:ring-4 focus-visible:ring-red-300 disabled:opacity-60';
/** A destructive action that asks before it acts. */
export const DANGER_OUTLINE_BUTTON =
  'rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-800 hover:bg-red-50 focus:outline-none focus-visible:ring-4 focus-visible:ring-red-200 disabled:opacity-60';
