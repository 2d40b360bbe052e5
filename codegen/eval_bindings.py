"""The C++ body of a routine's generated `cupp eval` binding, from its typed signature and calls
(codegen/templates/eval_bindings.cpp.j2 puts one per routine into a function table).

A body binds the arguments as Python does (tools/cupp/eval/arguments.hpp), refuses out= and the
unsupported parameters, and returns the C++ call with each {param} replaced by its reader. A
parameter of several types (int|ints) becomes an if-chain over the argument's kind, each branch
the call with that type's reader: C++ overload resolution then picks the function, as NumPy's
type dispatch does. `calls` with `if: flag` come first, in order."""
from __future__ import annotations

from model import Call, Routine
from routine_params import TYPES, Param

# What the argument at position {i} is, for the branches of a parameter of several types.
KIND_TEST = {
    "array": "a.get({i}).is_array()",
    "index_array": "a.get({i}).is_array()",
    "arrays": "a.get({i}).is_tuple()",
    "ints": "a.get({i}).is_tuple()",
    "shape": "a.get({i}).is_tuple()",
    "int": "arguments::is_int(a.get({i}))",
    "int32": "arguments::is_int(a.get({i}))",
    "number": "a.get({i}).is_scalar()",
    "float": "a.get({i}).is_scalar()",
    "operand": "a.get({i}).is_scalar()",
    "str": "a.get({i}).is_string()",
    "bool_mask": "a.get({i}).is_array() && a.get({i}).array().dtype().is_bool()",
    "index_obj": "true",
}


def _cpp_text(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _positions(r: Routine) -> dict[str, int]:
    """Each bound parameter's position in the binder (varargs are not bound)."""
    return {p.name: i for i, p in enumerate(q for q in r.params if not q.varargs)}


def _substitute(call: str, readers: dict[str, str]) -> str:
    for name, reader in readers.items():
        call = call.replace("{" + name + "}", reader)
    return call


def _return(c: Call, readers: dict[str, str], indent: str) -> list[str]:
    expr = _substitute(c.call, readers)
    if not c.returns:
        return [f"{indent}return to_value({expr});"]
    fields = ", ".join(f"r.{f}" for f in c.returns)
    return [f"{indent}{{", f"{indent}  const auto r = {expr};", f"{indent}  return tuple_of({{{fields}}});",
            f"{indent}}}"]


def _branches(r: Routine, readers: dict[str, str], unions: list[Param], pos: dict[str, int],
              indent: str) -> list[str]:
    """The calls, once per combination of the union parameters' types."""
    if not unions:
        out: list[str] = []
        for c in r.calls:
            if c.when:
                p = next(q for q in r.params if q.name == c.when)
                test = readers[c.when] if p.types == ["bool"] else f"a.has({pos[c.when]})"
                out.append(f"{indent}if ({test}) {{")
                out += _return(c, readers, indent + "  ")
                out.append(f"{indent}}}")
            else:
                out += _return(c, readers, indent)
        return out
    p, rest = unions[0], unions[1:]
    i = pos[p.name]
    out = []
    for t in p.types[:-1]:
        one = Param(p.name, [t], p.default, p.keyword_only, False, [])
        out.append(f"{indent}if (a.has({i}) && {KIND_TEST[t].replace('{i}', str(i))}) {{")
        out += _branches(r, {**readers, p.name: one.reader(i)}, rest, pos, indent + "  ")
        out.append(f"{indent}}}")
    last = Param(p.name, [p.types[-1]], p.default, p.keyword_only, False, [])
    return out + _branches(r, {**readers, p.name: last.reader(i)}, rest, pos, indent)


def binding_body(r: Routine) -> str:
    """The statements of the lambda `[](span_v args, span_k kw) -> value { ... }` for r."""
    pos = _positions(r)
    bound = [p for p in r.params if not p.varargs]
    varargs = [p for p in r.params if p.varargs]
    names = ", ".join(_cpp_text(p.name) for p in bound)
    required = sum(1 for p in bound if p.default is None)
    positional = sum(1 for p in bound if not p.keyword_only)
    # The positional parameters before *name (einsum's subscripts) take the first arguments.
    lead = r.params.index(varargs[0]) if varargs else 0
    split = f"args.size() < {lead} ? args.size() : std::size_t{{{lead}}}"
    given = ("{}" if not lead else f"args.first({split})") if varargs else "args"
    lines = [f"  const arguments a({_cpp_text(r.name)}, {{{names}}}, {required}, {positional}, {given}, kw);"]
    readers: dict[str, str] = {}
    for p in varargs:
        rest = f"args.subspan({split})" if lead else "args"
        readers[p.name] = f"positional_arrays({_cpp_text(r.name)}, {rest})"
    for p in bound:
        i = pos[p.name]
        kind = TYPES[p.types[0]].kind
        if p.types == ["out"]:
            lines.append(f"  if (a.has({i})) throw cupp::TypeError({_cpp_text(r.name + '(): out= is not supported by cupp eval (outputs go to the -o files)')});")
        elif p.types == ["unsupported"]:
            lines.append(f"  if (a.has({i})) throw cupp::ValueError({_cpp_text(r.name + ': ' + r.refuses[p.name])});")
        elif kind == "value" and len(p.types) == 1:
            readers[p.name] = p.reader(i)
    unions = [p for p in bound if len(p.types) > 1]
    lines += _branches(r, readers, unions, pos, "  ")
    return "\n".join(lines)
