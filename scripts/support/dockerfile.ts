// A Dockerfile read into its stages and instructions, so that scripts/deploy-rehearsal.ts can
// carry out the very steps it gives (no container engine runs on these machines). Only what a
// rehearsal needs: line continuations, comments, exec (JSON) and shell forms, flags.
export type Instruction = {
  keyword: string;
  /** `--name=value` flags before the arguments (COPY --from, --chown; HEALTHCHECK --interval). */
  flags: Record<string, string>;
  /** The arguments: the exec form's array, or the shell form split on blanks (COPY, ENV...). */
  args: string[];
  /** The text after the keyword and flags, as written (the shell form of RUN, CMD). */
  text: string;
  /** The exec form's array when the arguments were JSON. */
  exec?: string[];
};

export type Stage = { image: string; name: string; instructions: Instruction[] };

function logicalLines(text: string): string[] {
  const lines: string[] = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const trimmed = raw.trim();
    if (current === '' && (trimmed === '' || trimmed.startsWith('#'))) continue;
    if (current !== '' && trimmed.startsWith('#')) continue;
    // A continued line goes on with the next as Docker joins them: the backslash and newline go.
    if (trimmed.endsWith('\\')) {
      current += raw.trimEnd().slice(0, -1);
      continue;
    }
    lines.push(`${current}${raw}`.trim());
    current = '';
  }
  if (current.trim() !== '') lines.push(current.trim());
  return lines;
}

function parseInstruction(line: string): Instruction {
  const match = /^(\S+)\s*(.*)$/.exec(line)!;
  const keyword = match[1]!.toUpperCase();
  let rest = match[2]!;
  const flags: Record<string, string> = {};
  for (let flag = /^--([a-z-]+)=(\S+)\s*/.exec(rest); flag; flag = /^--([a-z-]+)=(\S+)\s*/.exec(rest)) {
    flags[flag[1]!] = flag[2]!;
    rest = rest.slice(flag[0].length);
  }
  const instruction: Instruction = { keyword, flags, args: rest.split(/\s+/).filter(Boolean), text: rest };
  if (rest.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(rest);
      if (Array.isArray(parsed) && parsed.every((each) => typeof each === 'string')) {
        instruction.exec = parsed;
        instruction.args = parsed;
      }
    } catch {
      // the shell form after all
    }
  }
  return instruction;
}

export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  for (const line of logicalLines(text)) {
    const instruction = parseInstruction(line);
    if (instruction.keyword === 'FROM') {
      const [image, as, name] = instruction.args;
      stages.push({
        image: image!,
        name: as?.toUpperCase() === 'AS' && name ? name : String(stages.length),
        instructions: [],
      });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`Dockerfile: ${instruction.keyword} before FROM`);
    stage.instructions.push(instruction);
  }
  return stages;
}

/** ENV's `key=value ...` (or the older `ENV key value`) as a record. */
export function envOf(instruction: Instruction): Record<string, string> {
  if (!instruction.text.includes('=')) {
    const [key, ...value] = instruction.args;
    return { [key!]: value.join(' ') };
  }
  return Object.fromEntries(
    [...instruction.text.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|\S*)/g)].map((match) => [
      match[1]!,
      match[2]!.startsWith('"') ? (JSON.parse(match[2]!) as string) : match[2]!,
    ]),
  );
}

/** HEALTHCHECK's command: `CMD <shell>` or `CMD [exec...]` after its options. */
export function healthcheckCommand(instruction: Instruction): string[] {
  const match = /^CMD\s+(.*)$/i.exec(instruction.text);
  if (!match) throw new Error(`HEALTHCHECK without CMD: ${instruction.text}`);
  const command = parseInstruction(`CMD ${match[1]!}`);
  return command.exec ?? ['/bin/sh', '-c', command.text];
}
