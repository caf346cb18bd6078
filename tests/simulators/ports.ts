// Where `npm run simulators` and the demo listen (tests/simulators/README.md).
export const SIMULATOR_PORTS = { culqi: 4310, mercadopago: 4311, culqiSecure: 4312, niubiz: 4313, izipay: 4314 } as const;
