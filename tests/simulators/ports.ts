/** Where `npm run simulators` and `npm run demo -- --processors` start the processors' simulators. */
export const SIMULATOR_PORTS = { culqi: 4310, mercadopago: 4311, culqiSecure: 4312 } as const;
