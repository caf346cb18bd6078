// RFC 4180 text as records of fields: quoted fields may hold commas, quotes ("") and line breaks.
// Strict on what the export promises: every record, the last included, ends with CRLF.
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      records.push([...record, field]);
      record = [];
      field = '';
      index += 1;
    } else if (char === '\n' || char === '\r') throw new Error(`bare line break outside quotes at ${index}`);
    else field += char;
  }
  if (quoted || field !== '' || record.length > 0) throw new Error('the last record does not end with CRLF');
  return records;
}

/** The records as objects keyed by the header row. */
export function csvObjects(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  return rows.map((row) => Object.fromEntries(header!.map((name, index) => [name, row[index] ?? ''])));
}
