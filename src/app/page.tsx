export default function HomePage() {
  return (
    <main className="mx-auto max-w-2xl p-8">
      <h1 className="text-2xl font-semibold">Orquestador de pagos</h1>
      <p className="mt-2 text-slate-600">Payment orchestration service for online merchants in Peru.</p>
      <ul className="mt-6 list-disc space-y-2 pl-6">
        <li>
          <a className="text-blue-700 underline" href="/operations">
            Consola
          </a>{' '}
          for merchants and support (sign in first)
        </li>
        <li>
          <a className="text-blue-700 underline" href="/api/openapi.json">
            OpenAPI 3.1 document
          </a>{' '}
          of the REST interface
        </li>
        <li>
          <a className="text-blue-700 underline" href="/oauth/.well-known/jwks.json">
            JWKS
          </a>{' '}
          for verifying access tokens
        </li>
      </ul>
    </main>
  );
}
