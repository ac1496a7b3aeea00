// A post-edit check's `when` written as the reference system writes it: a
// small expression over the changed file's `path` (from the project root)
// and `ext` (`.py`), such as `ext == '.py' and not path.startswith('tests/')`.
// yuj's own form is a glob; a check file written for the reference works
// unchanged. Only comparisons, `and`/`or`/`not`, parentheses, string
// literals and `path.startswith(…)` / `path.endswith(…)` are read: anything
// else is an error at load time, never code that runs.

class PredicateError extends Error {
  override name = "PredicateError";
}

/** Whether `when` is written as an expression rather than a glob. */
function isPredicate(when: string): boolean {
  // A name called like a function (`path.startswith(`, `__import__(`) is an expression; a glob's `@(a|b)` is not.
  return /==|!=|[A-Za-z_]\w*\s*\(|^\s*not\s|\s(?:and|or)\s|^\s*\(/.test(when);
}

type Value = string | boolean;
interface Vars {
  path: string;
  ext: string;
}

const TOKEN = /\s*(?:(==|!=|\(|\)|\.|,)|'([^'\\]*)'|"([^"\\]*)"|([A-Za-z_][A-Za-z0-9_]*))/y;

function tokenize(text: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    if (/^\s*$/.test(text.slice(at))) break;
    const m = TOKEN.exec(text);
    if (!m) throw new PredicateError(`unexpected text at "${text.slice(at).trim()}" (only path, ext, quoted strings, ==, !=, and, or, not, startswith and endswith)`);
    // Quoted strings keep a leading quote mark so they never read as names.
    out.push(m[1] ?? (m[2] !== undefined ? `'${m[2]}` : m[3] !== undefined ? `'${m[3]}` : m[4]!));
  }
  return out;
}

/** Evaluates `expr` for one file; throws PredicateError for anything outside the small language. */
function evalPredicate(expr: string, vars: Vars): boolean {
  const tokens = tokenize(expr);
  let i = 0;
  const peek = () => tokens[i];
  const take = (want?: string) => {
    const t = tokens[i++];
    if (t === undefined || (want !== undefined && t !== want)) throw new PredicateError(`expected ${want ?? "more"} in "${expr}"`);
    return t;
  };
  const atom = (): Value => {
    const t = take();
    if (t === "(") {
      const v = or();
      take(")");
      return v;
    }
    if (t.startsWith("'")) return t.slice(1);
    if (t === "True" || t === "False") return t === "True";
    if (t !== "path" && t !== "ext") throw new PredicateError(`unknown name "${t}" (only path and ext)`);
    const value = vars[t];
    if (peek() !== ".") return value;
    take(".");
    const method = take();
    if (method !== "startswith" && method !== "endswith") throw new PredicateError(`method "${method}" is not allowed (only startswith and endswith)`);
    take("(");
    const arg = take();
    if (!arg.startsWith("'")) throw new PredicateError(`${method} takes one string`);
    take(")");
    return method === "startswith" ? value.startsWith(arg.slice(1)) : value.endsWith(arg.slice(1));
  };
  const compare = (): Value => {
    const left = atom();
    const op = peek();
    if (op !== "==" && op !== "!=") return left;
    take();
    const right = atom();
    return op === "==" ? left === right : left !== right;
  };
  const not = (): Value => {
    if (peek() === "not") {
      take();
      return !truthy(not());
    }
    return compare();
  };
  const and = (): Value => {
    let v = not();
    while (peek() === "and") {
      take();
      const r = not();
      v = truthy(v) && truthy(r);
    }
    return v;
  };
  const or = (): Value => {
    let v = and();
    while (peek() === "or") {
      take();
      const r = and();
      v = truthy(v) || truthy(r);
    }
    return v;
  };
  const result = or();
  if (i < tokens.length) throw new PredicateError(`unexpected "${tokens[i]}" in "${expr}"`);
  return truthy(result);
}

const truthy = (v: Value): boolean => (typeof v === "boolean" ? v : v !== "");

/** Why `when` cannot be used, if it is an expression yuj does not read; undefined for a glob or a good expression. */
export function predicateProblem(when: string): string | undefined {
  if (!isPredicate(when)) return undefined;
  try {
    evalPredicate(when, { path: "", ext: "" });
    return undefined;
  } catch (err) {
    if (err instanceof PredicateError) return err.message;
    throw err;
  }
}

/** Whether a check's `when` takes the file at `rel` (from the project root). */
export function whenMatches(when: string, rel: string, glob: (rel: string, pattern: string) => boolean): boolean {
  if (when === "") return true;
  if (!isPredicate(when)) return glob(rel, when);
  const dot = rel.lastIndexOf(".");
  const slash = rel.lastIndexOf("/");
  return evalPredicate(when, { path: rel, ext: dot > slash + 1 ? rel.slice(dot) : "" });
}
