// Button looks of the console, each with a visible keyboard focus.
export const PRIMARY_BUTTON =
  'rounded-md bg-slate-900 px-4 py-1.5 text-sm font-semibold text-white hover:bg-slate-700 focus:outline-none focus-visible:ring-4 focus-visible:ring-slate-400 disabled:opacity-50';
export const SECONDARY_BUTTON =
  'rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-100 focus:outline-none focus-visible:ring-4 focus-visible:ring-slate-300 disabled:opacity-50';
export const DANGER_BUTTON =
  'rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm text-red-900 hover:bg-red-100 focus:outline-none focus-visible:ring-4 focus-visible:ring-red-200';
