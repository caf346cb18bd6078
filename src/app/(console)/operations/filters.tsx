'use client';

import { UrlFilters } from '../../console-ui/url-filters';

const all = { value: '', label: 'Todos' };
const STATES = ['REGISTRADO', 'PENDIENTE', 'AUTORIZADO', 'DENEGADO', 'CANCELADO', 'EXTORNADO', 'EXPIRADO', 'LIQUIDADO'];
const METHODS = ['CARD', 'YAPE', 'BANK_TRANSFER', 'CUOTEALO', 'PAGOEFECTIVO', 'QR'];

export function OperationFilters() {
  return (
    <UrlFilters
      label="Filtrar operaciones"
      fields={[
        { name: 'search', label: 'Buscar', kind: 'text', wide: true, placeholder: 'N.º de operación, id, últimos 4, correo' },
        { name: 'state', label: 'Estado', kind: 'select', options: [all, ...STATES.map((value) => ({ value, label: value }))] },
        { name: 'method', label: 'Medio', kind: 'select', options: [all, ...METHODS.map((value) => ({ value, label: value }))] },
        { name: 'from', label: 'Desde', kind: 'date' },
        { name: 'to', label: 'Hasta', kind: 'date' },
        { name: 'min', label: 'Monto mín. (S/)', kind: 'text', inputMode: 'decimal' },
        { name: 'max', label: 'Monto máx. (S/)', kind: 'text', inputMode: 'decimal' },
        {
          name: 'sort',
          label: 'Orden',
          kind: 'select',
          options: [
            { value: '', label: 'Más recientes' },
            { value: 'oldest', label: 'Más antiguas' },
            { value: 'amount_desc', label: 'Mayor monto' },
            { value: 'amount_asc', label: 'Menor monto' },
          ],
        },
      ]}
    />
  );
}
