"""A routine's C++ declaration derived from its spec (`declare: generated`): the function and its
option struct, written into the family's generated header (templates/declarations.hpp.j2), so a
hand-written routine needs no header edit: its spec entry, its implementation, its device code
and its reference cases are all it takes.

The call must be the plain form the generated binding makes:

    cupp::<ns>::<name>({p}, {q}, ..., cupp::<ns>::<name>_options{.field = {r}, ...})

Each leading {p} becomes a parameter of p's C++ type (with its default as a C++ default
argument), the option struct (optional) one field per designated initializer, typed and
defaulted from the parameter it names. Anything else (an expression around a placeholder, several
calls, a result struct) is a SpecError: such a routine declares itself by hand."""
from __future__ import annotations

import re
from dataclasses import dataclass

from routine_params import NO_VALUE, TYPES, Param, split_top
from spec_loader import SpecError

CALL = re.compile(r"^cupp::((?:\w+::)*)(\w+)\((.*)\)$")
STRUCT = re.compile(r"^cupp::((?:\w+::)*)(\w+_options)\{(.*)\}$")
FIELD = re.compile(r"^\.(\w+) = \{(\w+)\}$")
PLACEHOLDER = re.compile(r"^\{(\w+)\}$")


@dataclass
class Declaration:
    namespace: str                      # e.g. "cupp::linalg"
    function: str                       # e.g. "pipeline_double"
    params: list[tuple[str, str, str]]  # (C++ type, name, " = default" or "")
    struct: str | None                  # the option struct's name, or None
    fields: list[tuple[str, str, str]]  # (C++ type, name, default initializer: " = 0", "{}")

    def signature(self) -> str:
        parts = [f"{t} {n}{d}" for t, n, d in self.params]
        if self.struct:
            parts.append(f"const {self.struct}& options = {{}}")
        return f"ndarray {self.function}({', '.join(parts)})"


def _value_type(p: Param) -> str:
    """The C++ type holding p's value (a field or a by-value parameter)."""
    t = TYPES[p.types[0]]
    cpp = t.none_cpp if p.default in ("None", NO_VALUE) else t.cpp
    return cpp.replace("const ", "").replace("&", "").strip()


def _default(p: Param) -> str | None:
    """p's default as a C++ initializer value; None when p is required."""
    if p.default is None:
        return None
    if p.default in ("None", NO_VALUE):
        return "{}"
    return p.cpp_default()


def declaration(call: str, params: list[Param], path: str, line: int, what: str) -> Declaration:
    by_name = {p.name: p for p in params}

    def param(name: str) -> Param:
        p = by_name.get(name)
        if p is None or len(p.types) != 1 or p.kind != "value":
            raise SpecError(path, line, f"{what}: declare: generated needs '{{{name}}}' to be a parameter of one "
                                        f"value type")
        return p

    m = CALL.match(call)
    if not m:
        raise SpecError(path, line, f"{what}: declare: generated needs a call 'cupp::<ns>::<name>(...)', not '{call}'")
    namespace, function = ("cupp::" + m.group(1)).rstrip(":"), m.group(2)
    args = [a.strip() for a in split_top(m.group(3), ",")] if m.group(3).strip() else []
    out_params: list[tuple[str, str, str]] = []
    struct, fields = None, []
    for i, arg in enumerate(args):
        ph = PLACEHOLDER.match(arg)
        if ph:
            if struct:
                raise SpecError(path, line, f"{what}: declare: generated needs the option struct last")
            p = param(ph.group(1))
            t = TYPES[p.types[0]].cpp if p.default not in ("None", NO_VALUE) else _value_type(p)
            d = _default(p)
            if out_params and out_params[-1][2] and d is None:
                raise SpecError(path, line, f"{what}: declare: generated: '{p.name}' has no default but follows one "
                                            f"that has")
            out_params.append((t, p.name, f" = {d}" if d is not None else ""))
            continue
        st = STRUCT.match(arg)
        if not st or i != len(args) - 1:
            raise SpecError(path, line, f"{what}: declare: generated takes only {{param}} arguments and a last "
                                        f"'cupp::...::<name>_options{{.field = {{param}}, ...}}', not '{arg}'")
        struct = st.group(2)
        if "cupp::" + st.group(1).rstrip(":") != namespace:
            raise SpecError(path, line, f"{what}: declare: generated: the option struct must live in {namespace}")
        inits = [x.strip() for x in split_top(st.group(3), ",")] if st.group(3).strip() else []
        for init in inits:
            f = FIELD.match(init)
            if not f:
                raise SpecError(path, line, f"{what}: declare: generated: '{init}' is not '.field = {{param}}'")
            p = param(f.group(2))
            d = _default(p)
            fields.append((_value_type(p), f.group(1), " = " + d if d not in (None, "{}") else "{}"))
    return Declaration(namespace, function, out_params, struct, fields)
