import type { Server } from 'node:net';

export function listeningCopies(listener: Server, count: number): Promise<Server[]>;
