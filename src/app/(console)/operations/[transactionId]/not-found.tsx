import Link from 'next/link';

/** Also what a user sees for another merchant's operation: it does not exist for them. */
export default function OperationNotFound() {
  return (
    <div className="space-y-2 rounded-lg border border-slate-200 bg-white p-6">
      <h1 className="text-xl font-semibold">No encontramos esta operación</h1>
      <p className="text-slate-700">No existe, o no pertenece a tu comercio.</p>
      <Link href="/operations" className="text-blue-800 underline">
        Volver a operaciones
      </Link>
    </div>
  );
}
