// The Python that runs before a cell's own code. yuj writes one JSON line to
// the cell's stdin (the functions and their parameter names) and then the
// cell's source; the prelude defines each function as a call back to yuj:
// a JSON-RPC request on fd 4, its answer read from fd 5, one line each. A
// function returns the text the tool returned (an error is text too, as the
// model would see it from the tool itself). Then the source runs as __main__.

export const REQUEST_FD = 4;
export const ANSWER_FD = 5;

export const PRELUDE = `
import json, linecache, os, sys, traceback
_requests = os.fdopen(${REQUEST_FD}, "w", buffering=1, encoding="utf-8")
_answers = os.fdopen(${ANSWER_FD}, "r", encoding="utf-8")
_ids = [0]

class CellCallError(Exception):
    pass

def _call(method, params):
    _ids[0] += 1
    _requests.write(json.dumps({"jsonrpc": "2.0", "id": _ids[0], "method": method, "params": params}) + "\\n")
    line = _answers.readline()
    if not line:
        raise CellCallError("yuj ended the cell's connection")
    answer = json.loads(line)
    if "error" in answer:
        raise CellCallError(answer["error"].get("message", "call failed"))
    return answer["result"]

def _function(name, params):
    def call(*args, **kwargs):
        if len(args) > len(params):
            raise TypeError(f"{name}() takes at most {len(params)} positional arguments ({', '.join(params)})")
        given = dict(zip(params, args))
        for key, value in kwargs.items():
            if key in given:
                raise TypeError(f"{name}() got multiple values for argument '{key}'")
            given[key] = value
        return _call(name, given)
    call.__name__ = name
    return call

_header = json.loads(sys.stdin.readline())
_source = sys.stdin.read()
sys.stdin.close()
# Tracebacks quote the cell's lines.
linecache.cache["<cell>"] = (len(_source), None, _source.splitlines(True), "<cell>")
_globals = {"__name__": "__main__", "CellCallError": CellCallError}
for _name, _params in _header["functions"].items():
    _globals[_name] = _function(_name, _params)
try:
    exec(compile(_source, "<cell>", "exec"), _globals)
except SystemExit:
    raise
except BaseException:
    _kind, _error, _trace = sys.exc_info()
    # Only the cell's own frames: the prelude's are yuj's business.
    _frames = [f for f in traceback.extract_tb(_trace) if f.filename == "<cell>"]
    sys.stdout.flush()
    sys.stderr.write("Traceback (most recent call last):\\n" + "".join(traceback.format_list(_frames)) + "".join(traceback.format_exception_only(_kind, _error)))
    sys.exit(1)
`;
