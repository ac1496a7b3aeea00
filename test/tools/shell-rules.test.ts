import { describe, expect, it } from "vitest";
import {
  exitMeaning,
  isCodeLikePath,
  isCompound,
  isNonPromotable,
  needsPreservationReminder,
  PRESERVATION_REMINDER,
  pythonWritesFile,
  readSideRoute,
  shellRefusal,
  simpleSingleFileRead,
} from "../../tools/lib/shell-rules.js";
import { commandsOf, parseShell, type ShellParse } from "../../tools/lib/shell-words.js";

/** argv of every simple command, in order. */
const argvs = (p: ShellParse) => commandsOf(p).map((c) => c.words.map((w) => w.value));
const ops = (p: ShellParse) => p.items.map((i) => i.op);

const ALL = new Set(["bash", "read", "write", "edit", "grep", "glob", "done"]);
const without = (...tools: string[]) => new Set([...ALL].filter((t) => !tools.includes(t)));

describe("parseShell", () => {
  it.each<[string, string[][]]>([
    ["ls -la", [["ls", "-la"]]],
    ["echo 'a b' \"c d\" e\\ f", [["echo", "a b", "c d", "e f"]]],
    ["echo \"a; b\"", [["echo", "a; b"]]],
    ["grep 'x|y' f", [["grep", "x|y", "f"]]],
    ["echo a\\;b", [["echo", "a;b"]]],
    ["echo \"it's\" 'say \"hi\"'", [["echo", "it's", 'say "hi"']]],
    ["echo \"a\\\"b\\$c\\d\"", [["echo", 'a"b$c\\d']]],
    ["echo $'a\\nb\\'c'", [["echo", "a\nb'c"]]],
    ["echo ab\\\ncd", [["echo", "abcd"]]],
    ["echo $(ls -l | wc -l) `date`", [["echo", "$(ls -l | wc -l)", "`date`"]]],
    ["echo \"$(echo \"inner; quoted\")\"", [["echo", '$(echo "inner; quoted")']]],
    ["echo ${x:-a b;c}", [["echo", "${x:-a b;c}"]]],
    ["echo $((1 + 2))", [["echo", "$((1 + 2))"]]],
    ["diff <(sort a) <(sort b)", [["diff", "<(sort a)", "<(sort b)"]]],
    ["ls # a comment; rm -rf x", [["ls"]]],
    ["echo a#b", [["echo", "a#b"]]],
    ["a && b || c; d & e", [["a"], ["b"], ["c"], ["d"], ["e"]]],
    ["a | b |& c", [["a"], ["b"], ["c"]]],
    ["arr=(1 2 3) cmd", [["cmd"]]],
  ])("splits %j into words", (cmd, expected) => {
    const p = parseShell(cmd);
    expect(p.parseable).toBe(true);
    expect(argvs(p)).toEqual(expected);
  });

  it("groups pipelines into list items with their operators", () => {
    const p = parseShell("a | b && c; d | e | f &\ng");
    expect(p.items.map((i) => i.pipeline.stages.length)).toEqual([2, 1, 3, 1]);
    expect(ops(p)).toEqual(["&&", ";", "&", undefined]);
    expect(parseShell("! grep x f").items[0]!.pipeline.negated).toBe(true);
  });

  it("recognises leading assignments", () => {
    const [c] = commandsOf(parseShell("FOO=1 BAR='a b' A[2]=x cmd BAZ=2"));
    expect(c!.assignments.map((w) => w.value)).toEqual(["FOO=1", "BAR=a b", "A[2]=x"]);
    expect(c!.words.map((w) => w.value)).toEqual(["cmd", "BAZ=2"]);
    const [only] = commandsOf(parseShell("X=1"));
    expect(only!.words).toEqual([]);
    expect(only!.assignments.map((w) => w.value)).toEqual(["X=1"]);
    // A quoted name is not an assignment.
    expect(commandsOf(parseShell("'X'=1"))[0]!.words.map((w) => w.value)).toEqual(["X=1"]);
  });

  it.each<[string, { op: string; fd?: number; target: string }[]]>([
    ["echo hi > out.txt", [{ op: ">", target: "out.txt" }]],
    ["echo hi >>out.txt", [{ op: ">>", target: "out.txt" }]],
    ["cmd 2>err.log", [{ op: ">", fd: 2, target: "err.log" }]],
    ["cmd 2>&1", [{ op: ">&", fd: 2, target: "1" }]],
    ["cmd &> all.log", [{ op: "&>", target: "all.log" }]],
    ["cmd &>> all.log", [{ op: "&>>", target: "all.log" }]],
    ["cmd >| f", [{ op: ">|", target: "f" }]],
    ["cmd >&2", [{ op: ">&", target: "2" }]],
    ["cmd < in.txt", [{ op: "<", target: "in.txt" }]],
    ["cmd <<< 'some text'", [{ op: "<<<", target: "some text" }]],
    ["cmd 3<> f 4<&0", [{ op: "<>", fd: 3, target: "f" }, { op: "<&", fd: 4, target: "0" }]],
    ["cmd > 'a b.py'", [{ op: ">", target: "a b.py" }]],
    ["echo a2>f", [{ op: ">", target: "f" }]],
  ])("reads the redirections of %j", (cmd, expected) => {
    const [c] = commandsOf(parseShell(cmd));
    expect(c!.redirects.map((r) => ({ op: r.op, ...(r.fd === undefined ? {} : { fd: r.fd }), target: r.target.value }))).toEqual(
      expected,
    );
  });

  it("keeps `echo a2>f` as the word a2", () => {
    expect(argvs(parseShell("echo a2>f"))).toEqual([["echo", "a2"]]);
  });

  it("does not treat quoted operators as redirections", () => {
    const [c] = commandsOf(parseShell("echo '> file.py' \"2>&1\" \\> x"));
    expect(c!.redirects).toEqual([]);
    expect(c!.words.map((w) => w.value)).toEqual(["echo", "> file.py", "2>&1", ">", "x"]);
  });

  it("reads here-doc bodies", () => {
    const p = parseShell("cat <<EOF > a.py\nprint('x; y | z')\n  EOF\nEOF\necho after");
    expect(p.parseable).toBe(true);
    expect(argvs(p)).toEqual([["cat"], ["echo", "after"]]);
    const heredoc = commandsOf(p)[0]!.redirects[0]!;
    expect(heredoc).toMatchObject({ op: "<<", body: "print('x; y | z')\n  EOF\n" });
    expect(p.hasOperator).toBe(true);
  });

  it("strips leading tabs for <<- and honours quoted delimiters", () => {
    const p = parseShell("cat <<-'END'\n\tline $(not run)\n\tEND");
    const r = commandsOf(p)[0]!.redirects[0]!;
    expect(r.body).toBe("line $(not run)\n");
    expect(p.substitutions).toEqual([]);
    const unquoted = parseShell("cat <<END\n$(date)\nEND");
    expect(unquoted.substitutions).toEqual(["date"]);
  });

  it("reads several here-docs in order, and an unterminated one to the end like bash", () => {
    const [c] = commandsOf(parseShell("cmd <<A <<B\na\nA\nb\nB"));
    expect(c!.redirects.map((r) => r.body)).toEqual(["a\n", "b\n"]);
    expect(commandsOf(parseShell("cat <<EOF\nno end"))[0]!.redirects[0]!.body).toBe("no end\n");
  });

  it("records substitutions as opaque text", () => {
    const p = parseShell("echo $(a; b) `c | d` \"$(e)\" <(f) ${x:-$(g)}");
    expect(p.substitutions).toEqual(["a; b", "c | d", "e", "f", "g"]);
    expect(p.hasOperator).toBe(false);
    expect(commandsOf(p)[0]!.words.slice(1).every((w) => w.dynamic)).toBe(true);
  });

  it.each([
    ["cat $f", true],
    ["cat *.py", true],
    ["cat '*.py'", false],
    ["cat ~/x", true],
    ["cat a{b,c}", true],
    ["cat a[12]", true],
    ["cat plain.txt", false],
    ['cat "$HOME/x"', true],
  ])("marks %j dynamic: %s", (cmd, dynamic) => {
    expect(commandsOf(parseShell(cmd))[0]!.words[1]!.dynamic).toBe(dynamic);
  });

  it("flattens compound commands and reports their keywords", () => {
    const loop = parseShell("for f in $(ls); do sed -n 1p \"$f\"; done > out.txt");
    expect(loop.parseable).toBe(true);
    expect(loop.keywords).toEqual(["for", "do", "done"]);
    expect(loop.substitutions).toEqual(["ls"]);
    expect(argvs(loop)).toEqual([["sed", "-n", "1p", "$f"], []]);
    expect(commandsOf(loop)[1]).toMatchObject({ group: "done", redirects: [{ op: ">", target: { value: "out.txt" } }] });

    const cond = parseShell("if [[ $a < b && -f x ]]; then echo yes; elif true; then :; else echo no; fi");
    expect(cond.parseable).toBe(true);
    expect(argvs(cond)[0]).toEqual(["[[", "$a", "<", "b", "&&", "-f", "x", "]]"]);
    expect(commandsOf(cond)[0]!.redirects).toEqual([]);

    const kase = parseShell("case \"$x\" in\n  a|b) echo ab;;\n  (c) echo c ;;\n  *) ;;\nesac");
    expect(kase.parseable).toBe(true);
    expect(argvs(kase)).toEqual([["echo", "ab"], ["echo", "c"], []]);

    expect(argvs(parseShell("(cd sub && make) | tail -1"))).toEqual([["cd", "sub"], ["make"], [], ["tail", "-1"]]);
    expect(parseShell("{ a; b; } 2>&1").keywords).toEqual(["{", "}"]);
    expect(parseShell("f() { echo hi; }; f").parseable).toBe(true);
    expect(parseShell("function g { :; }").parseable).toBe(true);
    expect(parseShell("while read -r l; do echo \"$l\"; done < f").parseable).toBe(true);
    expect(parseShell("for ((i=0; i<3; i++)); do echo $i; done").parseable).toBe(true);
    expect(parseShell("time -p sleep 1").keywords).toEqual(["time"]);
  });

  it.each([
    "echo 'unterminated",
    'echo "unterminated',
    "echo $(unterminated",
    "echo `unterminated",
    "echo ${x",
    "echo $'x",
    "a |",
    "a &&",
    "| a",
    "; a",
    "a ;; b",
    "a | | b",
    "cat >",
    "cat > | x",
    "(a",
    "a)",
    "if true; then a",
    "for x in a; do b",
    "done",
    "{ a",
    "echo (",
    "[[ -f x",
    "case x in a) b;;",
  ])("refuses to parse %j", (cmd) => {
    const p = parseShell(cmd);
    expect(p.parseable).toBe(false);
    expect(p.error).toBeTruthy();
  });

  it("keeps the items before a parse error, as bash runs the earlier lines", () => {
    const p = parseShell("echo one\necho 'two");
    expect(p.parseable).toBe(false);
    expect(argvs(p)).toEqual([["echo", "one"]]);
  });

  it("survives pathological nesting and long input", () => {
    const deep = `echo ${'"$('.repeat(20000)}x${')"'.repeat(20000)}`;
    expect(parseShell(deep).parseable).toBe(false);
    expect(isCompound(deep)).toBe(true);
    const big = `cat > big.txt <<'EOF'\n${"line; with | ops & stuff\n".repeat(20000)}EOF`;
    const p = parseShell(big);
    expect(p.parseable).toBe(true);
    expect(p.hasOperator).toBe(false);
  });

  it("parses empty and blank input to nothing", () => {
    for (const cmd of ["", "   ", "\n\n", "# only a comment"]) {
      expect(parseShell(cmd)).toMatchObject({ parseable: true, items: [], hasOperator: false });
    }
  });
});

describe("isCompound", () => {
  it.each([
    ["ls -la", false],
    ["echo \"a; b\"", false],
    ["echo 'a && b || c | d & e'", false],
    ["grep 'x|y' f", false],
    ["echo a\\;b \\| c", false],
    ["cmd > out.log 2>&1", false],
    ["cmd &> out.log", false],
    ["FOO=1 cmd", false],
    ["ls\n", false],
    ["ls # ; rm -rf /", false],
    ["cat <<EOF\na; b | c\nEOF", false],
    ["(cd x)", false],
    ["[[ -f a && -f b ]]", false],
    ["ls; rm x", true],
    ["ls && rm x", true],
    ["ls || rm x", true],
    ["ls | rm x", true],
    ["ls |& rm x", true],
    ["ls & rm x", true],
    ["sleep 5 &", true],
    ["ls;", true],
    ["ls\nrm x", true],
    ["cat <<EOF\nbody\nEOF\nrm x", true],
    ["echo $(ls; rm x)", true],
    ["echo \"`ls | wc`\"", true],
    ["echo 'unterminated", true],
  ])("%j → %s", (cmd, expected) => {
    expect(isCompound(cmd)).toBe(expected);
  });
});

describe("shellRefusal", () => {
  const refuse = (cmd: string, tools: Set<string> = ALL) => shellRefusal(cmd, tools);

  it.each<[string, string]>([
    ["cd /", "cd_outside_repo"],
    ["cd / && ls", "cd_outside_repo"],
    ["cd /usr/lib/python3 && ls", "cd_outside_repo"],
    ["cd /home", "cd_outside_repo"],
    ["cd /root/", "cd_outside_repo"],
    ["cd /etc; cat passwd", "cd_outside_repo"],
    ["cd -P /opt/tools", "cd_outside_repo"],
    ["pushd //", "cd_outside_repo"],
    ["cd '/usr'", "cd_outside_repo"],
    ["cat > a.py", "cat_write"],
    ["cat >> notes.txt", "cat_write"],
    ["cat <<EOF > src/a.py\nx = 1\nEOF", "cat_write"],
    ["cat > src/a.py <<'EOF'\nx = 'it''s'\nEOF", "cat_write"],
    ["cat <<< 'x=1' > conf.txt", "cat_write"],
    ["cat -n > out.txt", "cat_write"],
    ["cat - > notes.txt", "cat_write"],
    ["sudo cat > /etc/motd", "cat_write"],
    ["tee src/a.py < /dev/null", "tee_write"],
    ["echo x | tee -a src/a.ts", "tee_write"],
    ["tee notes.txt <<EOF\nhello\nEOF", "tee_write"],
    ["cat <<EOF | tee notes.txt\nhello\nEOF", "tee_write"],
    ["sed -i 's/a/b/' x.py", "in_place_edit"],
    ["sed -i.bak 's/a/b/' x.py", "in_place_edit"],
    ["sed -Ei 's/a/b/' x.py", "in_place_edit"],
    ["sed --in-place 's/a/b/' x.py", "in_place_edit"],
    ["sed -e 's/x/y/' -i x.py", "in_place_edit"],
    ["find . -name '*.py' | xargs sed -i 's/a/b/'", "in_place_edit"],
    ["find . -name '*.py' -exec sed -i 's/a/b/' {} +", "in_place_edit"],
    ["find . -name '*.py' -execdir perl -pi -e 's/a/b/' {} \\;", "in_place_edit"],
    ["perl -pi -e 's/a/b/' x.py", "in_place_edit"],
    ["perl -i -pe 's/a/b/' x.py", "in_place_edit"],
    ["perl -0777 -i.bak -pe 's/a/b/g' x.py", "in_place_edit"],
    ["ruby -pi -e 'gsub(/a/, \"b\")' x.rb", "in_place_edit"],
    ["echo 'x = 1' > a.py", "redirect_code_file"],
    ["printf '%s\\n' x >> src/lib.rs", "redirect_code_file"],
    ["echo '{}' > package.json", "redirect_code_file"],
    ["echo hi > README.md", "redirect_code_file"],
    ["echo all: > Makefile", "redirect_code_file"],
    ["node gen.js &> out.ts", "redirect_code_file"],
    ["echo x >| f.yaml", "redirect_code_file"],
    ["echo x > \"src/$name.py\"", "redirect_code_file"],
    ["for f in a b; do echo $f; done > list.json", "redirect_code_file"],
    ["echo ok && echo 'x' > a.go", "redirect_code_file"],
    ["echo $(echo x > a.py)", "redirect_code_file"],
    ["bash -c 'echo x > a.py'", "redirect_code_file"],
    ["echo value > out.txt", "redirect_write"],
    ["echo hi > out.log", "redirect_write"],
    ["echo hi >> build.out", "redirect_write"],
    ["printf '%s\\n' a b > list.txt", "redirect_write"],
    ["make && echo done > status.txt", "redirect_write"],
    ["> empty.txt", "redirect_write"],
    ["cat <<EOF > out.txt\nvalue\nEOF", "cat_write"],
    ["tee out.txt <<EOF\nvalue\nEOF", "tee_write"],
    ["python3 - <<EOF\nopen('out.txt', 'w').write('x')\nEOF", "python_write"],
    ["python3 <<'PY'\nwith open(path, mode='a') as f:\n    f.write(s)\nPY", "python_write"],
    ["python - <<EOF\nfrom pathlib import Path\nPath('a.py').write_text('x')\nEOF", "python_write"],
    ["cat <<EOF | python3 -\nopen('a', 'wb')\nEOF", "python_write"],
    ["python3 -c \"open('a.py','w').write('x')\"", "python_write"],
    ["python3 -u - <<EOF\nimport io\nio.open(p, \"x\")\nEOF", "python_write"],
  ])("refuses %j (%s)", (cmd, rule) => {
    expect(refuse(cmd)?.rule).toBe(rule);
  });

  it.each([
    "cat file.py",
    "cat a.py b.py > both.txt",
    "cat < in.txt > out.txt",
    "some_cmd | cat > out.txt",
    "cat file.py | grep x",
    "make > build.log 2>&1",
    "echo hi >&2",
    "sleep 9 & echo $! > pid.txt",
    "echo \"$(date)\" >> stamps.log",
    "npm test > /dev/null 2>&1",
    "cmd 2>&1",
    "cmd 2> /dev/null",
    "cmd &> /dev/null",
    "cmd >&2",
    "echo x 2>&1 | tee build.log",
    "npm test 2>&1 | tee -a test-output.txt",
    "cmd | tee /dev/stderr",
    "echo '> file.py'",
    "echo \"cat > a.py\"",
    "grep 'sed -i' notes.md",
    "echo sed -i x",
    "sed 's/a/b/' x.py",
    "sed -n '1,5p' x.py",
    "sed -e 's/i/x/' x.py",
    "sed -f script.sed x.py",
    "perl -ne 'print if /x/' x.py",
    "perl -e 'print \"-i\"'",
    "cd src && ls",
    "cd ..",
    "cd /tmp/build",
    "cd $HOME",
    "cd",
    "cd /usrlocal",
    "python3 script.py > out.txt",
    "python3 script.py <<EOF\nopen('x', 'w')\nEOF",
    "python3 -m pytest > report.txt",
    "python3 - <<EOF\nprint(open('a.py').read())\nEOF",
    "python3 - <<EOF\ndata = open('a.txt', 'r').read()\nprint(data, 'w')\nEOF",
    "python3 -c 'import sys; print(sys.version)'",
    "git diff > changes.patch",
    "diff -u a b > fix.diff",
    "cat <(ls) > /dev/null",
    "echo x > $out",
    "[[ $a > b.py ]]",
  ])("allows %j", (cmd) => {
    expect(refuse(cmd)).toBeUndefined();
  });

  it("is inert when the target tool is not active", () => {
    expect(refuse("echo x > a.py", without("write"))).toBeUndefined();
    expect(refuse("cat > a.txt", without("write"))).toBeUndefined();
    expect(refuse("tee a.py < /dev/null", without("write"))).toBeUndefined();
    expect(refuse("python3 - <<EOF\nopen('a','w')\nEOF", without("write"))).toBeUndefined();
    expect(refuse("sed -i s/a/b/ f", without("edit"))).toBeUndefined();
    // cd has no owning tool: leaving the repository is refused regardless.
    expect(refuse("cd /", new Set())?.rule).toBe("cd_outside_repo");
  });

  it("names the active replacement tool for in-place edits", () => {
    const patchOnly = new Set(["bash", "write", "apply_patch"]);
    expect(refuse("sed -i s/a/b/ f.py", patchOnly)?.message).toBe(
      "ERROR: shell_refused: in-place edit with sed -i — use the apply_patch tool instead " +
        "(it checks every hunk before changing the file and reports what did not match).",
    );
    expect(refuse("perl -pi -e s/a/b/ f", new Set(["udiff"]))?.message).toContain("use the udiff tool instead");
    expect(refuse("sed -i s/a/b/ f", new Set(["edit", "apply_patch"]))?.message).toContain("use the edit tool instead");
  });

  it("writes messages in the documented format", () => {
    expect(refuse("cd /usr/lib")?.message).toBe(
      "ERROR: shell_refused: cd /usr/lib leaves the repository — drop the cd and use repository-relative paths " +
        "instead (commands already run in the repository root).",
    );
    expect(refuse("sed -i s/a/b/ f.py")?.message).toBe(
      "ERROR: shell_refused: in-place edit with sed -i — use the edit tool instead " +
        "(a pattern edit can silently change the wrong lines or none; edit reports when the text is not found).",
    );
    const write = "use the write tool instead (shell quoting can mangle file contents; write stores them exactly).";
    expect(refuse("cat > a.py <<EOF\nx\nEOF")?.message).toBe(`ERROR: shell_refused: writing a.py with cat — ${write}`);
    expect(refuse("tee b.ts < /dev/null")?.message).toBe(`ERROR: shell_refused: writing b.ts with tee — ${write}`);
    expect(refuse("echo 1 > c.json")?.message).toBe(`ERROR: shell_refused: writing c.json with a shell redirect — ${write}`);
    expect(refuse("python3 - <<EOF\nopen('d','w')\nEOF")?.message).toBe(
      `ERROR: shell_refused: writing a file from a python heredoc — ${write}`,
    );
    expect(refuse("python3 -c \"open('d','w')\"")?.message).toBe(
      `ERROR: shell_refused: writing a file from inline python — ${write}`,
    );
  });

  it("checks every fragment and reports the first in source order", () => {
    expect(refuse("ls && sed -i s/a/b/ f && echo x > a.py")?.rule).toBe("in_place_edit");
    expect(refuse("echo x > a.py; cd /")?.rule).toBe("redirect_code_file");
    expect(refuse("echo one\necho x > a.py\necho 'unterminated")?.rule).toBe("redirect_code_file");
  });
});

describe("pythonWritesFile", () => {
  it.each([
    ["open('a', 'w')", true],
    ["open('a', \"a+\")", true],
    ["open('a', 'xb')", true],
    ["open(os.path.join(d, 'a'), 'w')", true],
    ["open('a', encoding='utf8', mode='wt')", true],
    ["gzip.open('a.gz', 'wt')", true],
    ["p.write_bytes(b'x')", true],
    ["open('a')", false],
    ["open('a', 'r')", false],
    ["open('a', 'rb')", false],
    ["print(open('a').read(), 'w')", false],
    ["os.open(p, os.O_WRONLY)", false],
    ["reopen('a', 'w')", false],
  ])("%j → %s", (code, expected) => {
    expect(pythonWritesFile(code)).toBe(expected);
  });
});

describe("isCodeLikePath", () => {
  it.each([
    ["a.py", true],
    ["src/App.TSX", true],
    ["x.md", true],
    ["Dockerfile", true],
    ["conf/app.yml", true],
    ["out.log", false],
    ["notes.txt", false],
    ["result.out", false],
    ["data.csv", false],
    ["/dev/null", false],
    ["noext", false],
    ["changes.patch", false],
  ])("%j → %s", (file, expected) => {
    expect(isCodeLikePath(file)).toBe(expected);
  });
});

describe("readSideRoute", () => {
  const route = (cmd: string, tools: Set<string> = ALL) => readSideRoute(cmd, tools);

  it.each<[string, "read" | "grep" | "glob", string | undefined]>([
    ["cat src/a.py", "read", 'read {"path":"src/a.py"}'],
    ["cat -n src/a.py", "read", 'read {"path":"src/a.py"}'],
    ["cat 'my file.py'", "read", 'read {"path":"my file.py"}'],
    ["head src/a.py", "read", 'read {"path":"src/a.py"}'],
    ["head -n 20 src/a.py", "read", 'read {"path":"src/a.py","limit":20}'],
    ["head -20 src/a.py", "read", 'read {"path":"src/a.py","limit":20}'],
    ["head -n20 src/a.py", "read", 'read {"path":"src/a.py","limit":20}'],
    ["head --lines=5 a", "read", 'read {"path":"a","limit":5}'],
    ["tail -n 30 log.txt", "read", 'read {"path":"log.txt"}'],
    ["tail -n +40 a.py", "read", 'read {"path":"a.py","offset":39}'],
    ["less a.py", "read", 'read {"path":"a.py"}'],
    ["more a.py", "read", 'read {"path":"a.py"}'],
    ["nl a.py", "read", 'read {"path":"a.py"}'],
    ["sed -n '10,20p' a.py", "read", 'read {"path":"a.py","offset":9,"limit":11}'],
    ["sed -n 5p a.py", "read", 'read {"path":"a.py","offset":4,"limit":1}'],
    ["sed -n '5,$p' a.py", "read", 'read {"path":"a.py","offset":4}'],
    ["cat a.py 2>/dev/null", "read", 'read {"path":"a.py"}'],
    ["grep -r foo src", "grep", 'grep {"pattern":"foo","path":"src"}'],
    ["grep -rn 'def main' .", "grep", 'grep {"pattern":"def main"}'],
    ["grep -R foo", "grep", 'grep {"pattern":"foo"}'],
    ["grep foo a.py", "grep", 'grep {"pattern":"foo","path":"a.py"}'],
    ["grep -n 'left|right && center' src/app.py", "grep", 'grep {"pattern":"left\\\\|right && center","path":"src/app.py"}'],
    ["grep -rni todo src", "grep", 'grep {"pattern":"(?i)todo","path":"src"}'],
    ["grep -rn 'a\\|b' src", "grep", 'grep {"pattern":"a|b","path":"src"}'],
    ["grep -rnE 'a|b(c)' src", "grep", 'grep {"pattern":"a|b(c)","path":"src"}'],
    ["grep -rF 'a.b(' src", "grep", 'grep {"pattern":"a\\\\.b\\\\(","path":"src"}'],
    ["grep -rw foo .", "grep", 'grep {"pattern":"\\\\b(?:foo)\\\\b"}'],
    ["grep -rn --include='*.py' foo src", "grep", 'grep {"pattern":"foo","path":"src","glob":"*.py"}'],
    ["grep -rn -e foo -e bar src", "grep", 'grep {"pattern":"(?:foo)|(?:bar)","path":"src"}'],
    ["grep --color=never -rn foo src", "grep", 'grep {"pattern":"foo","path":"src"}'],
    ["egrep -r 'a+' .", "grep", 'grep {"pattern":"a+"}'],
    ["rg foo", "grep", 'grep {"pattern":"foo"}'],
    ["rg -n 'fn \\w+' src", "grep", 'grep {"pattern":"fn \\\\w+","path":"src"}'],
    ["rg -i -g '*.ts' foo src", "grep", 'grep {"pattern":"(?i)foo","path":"src","glob":"*.ts"}'],
    ["rg -S foo", "grep", 'grep {"pattern":"(?i)foo"}'],
    ["ag foo src", "grep", 'grep {"pattern":"(?i)foo","path":"src"}'],
    ["ag -s Foo", "grep", 'grep {"pattern":"Foo"}'],
    ["git grep -n foo", "grep", 'grep {"pattern":"foo"}'],
    ["git grep -n foo -- src", "grep", 'grep {"pattern":"foo","path":"src"}'],
    ["find . -name '*.py'", "glob", 'glob {"pattern":"**/*.py"}'],
    ["find src -type f -name '*.ts'", "glob", 'glob {"pattern":"**/*.ts","path":"src"}'],
    ["find . -maxdepth 1 -name '*.md'", "glob", 'glob {"pattern":"*.md"}'],
    ["find src -type f", "glob", 'glob {"pattern":"**/*","path":"src"}'],
    ["find .", "glob", 'glob {"pattern":"**/*"}'],
    ["find . -iname '*.PY'", "glob", undefined],
    ["find . \\( -name '*.py' -o -name '*.pyi' \\)", "glob", undefined],
    ["find . -type d -name test", "glob", undefined],
    ["ls -R src", "glob", 'glob {"pattern":"**/*","path":"src"}'],
    ["ls -laR", "glob", 'glob {"pattern":"**/*"}'],
    ["tree src", "glob", 'glob {"pattern":"**/*","path":"src"}'],
    ["tree -L 2", "glob", 'glob {"pattern":"**/*"}'],
    ["rg --files src", "glob", 'glob {"pattern":"**/*","path":"src"}'],
    ["rg --files -g '*.py'", "glob", 'glob {"pattern":"**/*.py"}'],
  ])("routes %j to %s", (cmd, tool, call) => {
    const r = route(cmd);
    expect(r?.tool).toBe(tool);
    if (call === undefined) expect(r?.message).not.toContain("Try:");
    else expect(r?.message).toContain(`Try: ${call}`);
  });

  it.each([
    // count-only
    "wc -l a.py",
    "grep -c foo a.py",
    "grep -rc foo src",
    "grep -r --count foo src",
    "rg -c foo",
    "rg --count foo",
    "rg --count-matches foo",
    "cat a.py | wc -l",
    "find . -name '*.py' | wc -l",
    // stdin stages
    "ls | grep x",
    "git log | head",
    "npm test 2>&1 | tail -20",
    "grep -r foo src | grep -v test",
    // other stages that are not routable
    "cat a.py | sort",
    "cat a.py | grep -v x",
    "grep -r foo src | grep -v test",
    "cat a.py &",
    "! grep -r foo .",
    // not a plain display, search or discovery
    "cat",
    "cat a.py b.py",
    "cat *.py",
    "cat $f",
    "cat -A a.py",
    "cat a.py > b.py",
    "cat a.py >> log.txt",
    "cat <<EOF\nx\nEOF",
    "head -c 100 a.py",
    "head -n -5 a.py",
    "head -n 0 a.py",
    "tail -f app.log",
    "tail -F app.log",
    "sed -n '/x/p' a.py",
    "sed '1,5p' a.py",
    "sed -n '1,5p' a.py b.py",
    "grep foo",
    "grep foo a.py b.py",
    "grep -rv foo src",
    "grep -ro foo src",
    "grep -rq foo src",
    "grep -rL foo src",
    "grep -rl foo src",
    "rg -l needle src/app.py",
    "rg --files-with-matches needle",
    "git grep -l foo",
    "grep -rn -A3 foo src",
    "grep -r foo src lib",
    "grep -r $pat src",
    "grep -r \"$(cat p)\" src",
    "rg -v foo",
    "rg --json foo",
    "rg -A 2 foo",
    "rg --hidden foo",
    "rg foo src lib",
    "git grep -c foo",
    "git log --grep foo",
    "find . -name '*.py' -delete",
    "find . -name '*.py' -exec rm {} +",
    "find . -newer a.py",
    "find . -size +1M",
    "find . -name '*.pyc' -print0",
    "find a b -name x",
    "ls",
    "ls -la src",
    "tree -o out.txt",
    "for f in a b; do cat $f; done",
    "echo $(cat a.py)",
    "x=$(cat a.py)",
    "cat 'unterminated",
    "",
  ])("keeps %j in the shell", (cmd) => {
    expect(route(cmd)).toBeUndefined();
  });

  it("is inert when the target tool is not active", () => {
    expect(route("cat a.py", without("read"))).toBeUndefined();
    expect(route("grep -rn foo src", without("grep"))).toBeUndefined();
    expect(route("find . -name '*.py'", without("glob"))).toBeUndefined();
    // Only the part whose tool is active is routed.
    expect(route("cat a.py; grep -rn foo src", without("grep"))?.message).toBe(
      "ERROR: shell_routed: use the read tool for `cat a.py` (simple file display); it returns paged, structured results; " +
        'run the rest of the line on its own. Try: read {"path":"a.py"}',
    );
  });

  it.each<[string, "read" | "grep" | "glob", string, string | undefined]>([
    ["echo ready; LC_ALL=C cat src/app.py", "read", "LC_ALL=C cat src/app.py", 'read {"path":"src/app.py"}'],
    ["cat src/app.py | grep needle", "read", "cat src/app.py", 'read {"path":"src/app.py"}'],
    ["cat a.py | head -20", "read", "cat a.py", 'read {"path":"a.py"}'],
    ["cat a.py && python3 a.py", "read", "cat a.py", 'read {"path":"a.py"}'],
    ["make build 2>&1; grep -rn error src", "grep", "grep -rn error src", 'grep {"pattern":"error","path":"src"}'],
    ["find src -name '*.py' | head", "glob", "find src -name '*.py'", 'glob {"pattern":"**/*.py","path":"src"}'],
    // After a cd the paths mean something else: the tool is named, no call is suggested.
    ["cd src && grep -rn foo .", "grep", "grep -rn foo .", undefined],
  ])("routes the read inside the compound %j to %s", (cmd, tool, fragment, call) => {
    const r = route(cmd);
    expect(r?.tool).toBe(tool);
    expect(r?.message).toContain(`for \`${fragment}\``);
    expect(r?.message).toContain("run the rest of the line on its own");
    if (call === undefined) expect(r?.message).not.toContain("Try:");
    else expect(r?.message).toContain(`Try: ${call}`);
  });

  it("routes a find to glob only with a pattern glob accepts", () => {
    const refusing = (cmd: string) => readSideRoute(cmd, ALL, { globRefusesUnscoped: true });
    // glob refuses `**/` over the whole project, so these stay in the shell.
    expect(refusing("find . -name '*.py'")).toBeUndefined();
    expect(refusing("find . -type f")).toBeUndefined();
    expect(refusing("find . -iname '*.PY'")).toBeUndefined();
    expect(refusing("ls -R")).toBeUndefined();
    expect(refusing("find src -name '*.py'")?.message).toContain('Try: glob {"pattern":"**/*.py","path":"src"}');
    expect(refusing("find . -maxdepth 1 -name '*.md'")?.message).toContain('Try: glob {"pattern":"*.md"}');
  });

  it("routes a list made only of routable commands", () => {
    const r = route("cat a.py; cat b.py");
    expect(r?.tool).toBe("read");
    expect(r?.message).toContain('Try: read {"path":"a.py"}; read {"path":"b.py"}');
    const mixed = route("cat a.py && grep -rn foo src");
    expect(mixed?.tool).toBe("read");
    expect(mixed?.message).toContain(
      "use the read and grep tools for `cat a.py`, `grep -rn foo src` (simple file display; text search over files)",
    );
  });

  it("writes messages in the documented format", () => {
    expect(route("head -n 20 src/a.py")?.message).toBe(
      "ERROR: shell_routed: use the read tool for this (simple file display); it returns paged, structured results. " +
        'Try: read {"path":"src/a.py","limit":20}',
    );
    expect(route("grep -rn foo src")?.message).toBe(
      "ERROR: shell_routed: use the grep tool for this (text search over files); it returns paged, structured results. " +
        'Try: grep {"pattern":"foo","path":"src"}',
    );
    expect(route("find . -type d")?.message).toBe(
      "ERROR: shell_routed: use the glob tool for this (path discovery); it returns paged, structured results.",
    );
  });
});

describe("simpleSingleFileRead", () => {
  it.each<[string, string | undefined]>([
    ["cat src/a.py", "src/a.py"],
    ["cat -n a.py", "a.py"],
    ["head a.py", "a.py"],
    ["head -n 50 a.py", "a.py"],
    ["tail -n 5 a.py", "a.py"],
    ["tail -n +3 a.py", "a.py"],
    ["sed -n '1,20p' a.py", "a.py"],
    ["nl a.py", "a.py"],
    ["LC_ALL=C cat a.py", "a.py"],
    ["cat \"dir with space/a.py\"", "dir with space/a.py"],
    ["cat a.py 2>/dev/null", "a.py"],
    ["cat a.py b.py", undefined],
    ["cat a.py | head", undefined],
    ["cat a.py && cat b.py", undefined],
    ["cat a.py > b.py", undefined],
    ["cat $f", undefined],
    ["cat src/*.py", undefined],
    ["head -c 10 a.py", undefined],
    ["tail -f a.log", undefined],
    ["sed -n '/def/p' a.py", undefined],
    ["sed -i '1d' a.py", undefined],
    ["grep x a.py", "a.py"],
    ["grep -c x a.py", undefined],
    ["wc -l a.py", undefined],
    ["cat", undefined],
    ["cat 'a.py", undefined],
  ])("%j → %j", (cmd, expected) => {
    expect(simpleSingleFileRead(cmd)).toBe(expected);
  });
});

describe("isNonPromotable", () => {
  it.each([
    ["sleep 5", true],
    ["sleep 0.5 && sleep 1", true],
    ["git status", true],
    ["git status --short && git diff --stat", true],
    ["git log --oneline -5; git show HEAD", true],
    ["git -C sub --no-pager log -1", true],
    ["git rev-parse HEAD", true],
    ["git branch", true],
    ["git branch -a --contains abc", true],
    ["git remote -v", true],
    ["git config --get user.name", true],
    ["git describe --tags", true],
    ["git ls-files src", true],
    ["git stash list", true],
    ["sleep 2; git status", true],
    ["x=$(git rev-parse HEAD)", true],
    ["git diff $(git merge-base HEAD main)", true],
    ["echo 'unterminated", true],
    ["a &&", true],
    ["", true],
    ["git clone https://x/y.git", false],
    ["git fetch origin", false],
    ["git pull", false],
    ["git push origin main", false],
    ["git submodule update --init", false],
    ["git gc", false],
    ["git fsck", false],
    ["git repack -ad", false],
    ["git bundle create x.bundle HEAD", false],
    ["git filter-branch --tree-filter x", false],
    ["git commit -m x", false],
    ["git branch -D old", false],
    ["git branch new-feature", false],
    ["git remote show origin", false],
    ["git config user.name me", false],
    ["npm test", false],
    ["sleep 1 && npm test", false],
    ["git status | grep modified", false],
    ["git log $(npm run x)", false],
    ["while true; do git status; sleep 1; done", false],
    ["for i in 1 2; do sleep 1; done", false],
    ["make", false],
  ])("%j → %s", (cmd, expected) => {
    expect(isNonPromotable(cmd)).toBe(expected);
  });
});

describe("needsPreservationReminder", () => {
  it.each([
    ["npm test 2>&1 | tail -20", true],
    ["pytest | grep FAIL", true],
    ["make 2>&1 | head -50", true],
    ["cargo test |& egrep 'panicked|FAILED'", true],
    ["go test ./... | rg FAIL", true],
    ["cd x && npm test | tail", true],
    ["out=$(npm test | tail -5)", true],
    ["for f in *; do pytest $f; done | tail", true],
    ["npm test", false],
    ["npm test > out.log 2>&1", false],
    ["tail -20 build.log", false],
    ["grep FAIL build.log", false],
    ["npm test | tee out.log", false],
    ["echo 'npm test | tail'", false],
    ["npm test && tail -5 out.log", false],
    ["npm test | 'unterminated", false],
  ])("%j → %s", (cmd, expected) => {
    expect(needsPreservationReminder(cmd)).toBe(expected);
  });

  it("explains the problem and the alternative", () => {
    expect(PRESERVATION_REMINDER).toMatch(/tail, grep or head/);
    expect(PRESERVATION_REMINDER).toMatch(/never saved in the output log/);
    expect(PRESERVATION_REMINDER).toMatch(/exit status/);
    expect(PRESERVATION_REMINDER).toMatch(/run the command on its own and read or grep its saved output/);
  });
});

describe("exitMeaning", () => {
  it.each<[string, number, string | undefined]>([
    ["grep foo a.py", 1, "no matches"],
    ["LC_ALL=C grep -q 'a|b' f", 1, "no matches"],
    ["egrep x f", 1, "no matches"],
    ["fgrep x f", 1, "no matches"],
    ["rg foo", 1, "no matches"],
    ["ripgrep foo", 1, "no matches"],
    ["ag foo", 1, "no matches"],
    ["\\grep foo f", 1, "no matches"],
    ["grep foo f 2>&1", 1, "no matches"],
    ["grep foo f 2>/dev/null", 1, "no matches"],
    ["grep -r 'a && b' src", 1, "no matches"],
    ["/usr/bin/diff a b", 1, "files differ"],
    ["cmp a b", 1, "files differ"],
    ["find . -name x", 1, "errors during traversal (consult stderr)"],
    ["test -f x", 1, "condition is false"],
    ["[ -f x ]", 1, "condition is false"],
    ["grep foo f;", 1, "no matches"],
    ["grep y f", 2, undefined],
    ["grep y f", 0, undefined],
    ["python t.py", 1, undefined],
    ["cd x && grep y", 1, undefined],
    ["cat f | grep y", 1, undefined],
    ["grep $(echo y) f", 1, undefined],
    ["grep `echo y` f", 1, undefined],
    ["! grep y f", 1, undefined],
    ["grep y f &", 1, undefined],
    ["if grep y f; then :; fi", 1, undefined],
    ["timeout 5 grep y f", 1, undefined],
    ["grep 'unterminated f", 1, undefined],
    ["[[ -f x ]]", 1, undefined],
  ])("%j exit %i → %j", (cmd, code, expected) => {
    expect(exitMeaning(cmd, code)).toBe(expected);
  });
});
