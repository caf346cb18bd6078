import type { SqlQuery } from '@prisma/driver-adapter-utils';

// Prepared statements on PostgreSQL: each distinct SQL text gets a name, so each pooled
// connection parses and plans it once and afterwards only binds and executes it (the server
// may then keep a generic plan); docs/BENCHMARKS.md has what that saves on a charge.
// The texts are the service's own (Prisma's and the raw statements), with values always as
// parameters, so they are few. A statement with many parameters is a list whose length varies
// with the data (an IN list, a multi-row insert): each length would be a text of its own, so
// those run unnamed; so do all texts past MAX_NAMED, so that an unexpected variety
// cannot grow every connection's statements (and the server's memory for them) without bound.
// A name belongs to one text only: the driver refuses a known name with another text.

const MAX_NAMED = 500;
const MAX_PARAMETERS = 32;

export function statementNamer(): (query: SqlQuery) => string {
  const names = new Map<string, string>();
  return (query) => {
    const known = names.get(query.sql);
    if (known !== undefined) return known;
    if (names.size >= MAX_NAMED || query.args.length > MAX_PARAMETERS) return '';
    const name = `s${names.size + 1}`;
    names.set(query.sql, name);
    return name;
  };
}
