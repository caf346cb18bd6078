'use client';

import { createContext, useContext, type ReactNode } from 'react';

const ZoneContext = createContext<string>('America/Lima');

/** Gives client components the business time zone the server is configured with. */
export function BusinessZoneProvider({ zone, children }: { zone: string; children: ReactNode }) {
  return <ZoneContext.Provider value={zone}>{children}</ZoneContext.Provider>;
}

export function useBusinessZone(): string {
  return useContext(ZoneContext);
}
