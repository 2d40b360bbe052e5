"""A routine's typed signature: the parameter types `cupp eval`'s argument binder knows, and the
parser of a spec's annotated signature such as

    take(a: array, indices: index_array, axis: axis = None, out: out = None, mode: str = 'raise')

into Param objects. Each type names the C++ expression that reads the argument at position i
(tools/cupp/eval/arguments.hpp), with and without a default; a default of None reads the type's
optional form. The signature NumPy users see (`cupp ops`, the API pages) is the same text with the
annotations taken out. Types and their meaning: docs/writing-specs.md ("Routine signatures")."""
from __future__ import annotations

import re
from dataclasses import dataclass

from spec_loader import SpecError

IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class ParamType:
    cpp: str            # the C++ type the reader gives (with a default other than None)
    meaning: str        # one line for docs/writing-specs.md and the API pages
    required: str       # reader when the argument must be given ("{i}" is its position)
    with_default: str | None = None   # reader with a default ("{d}": the default as C++)
    when_none: str | None = None      # reader when the default is None (an optional)
    none_cpp: str | None = None       # the C++ type when_none gives
    kind: str = "value"                # "value"; "refuse" (out, unsupported); "ignore"; "varargs"


# The binder's vocabulary. Readers are members of cupp::eval::arguments (`a`).
TYPES: dict[str, ParamType] = {
    # None: an empty ndarray, the option structs' "not given" (ndarray weights{}).
    "array": ParamType("const cupp::ndarray&", "an array", "a.array({i})",
                       when_none="a.optional_array({i})", none_cpp="cupp::ndarray"),
    "array_like": ParamType("cupp::ndarray", "an array, or a Python scalar as a 0-d array (np.asanyarray)",
                            "a.array_like({i})", when_none="a.optional_array_like({i})", none_cpp="cupp::ndarray"),
    "where": ParamType("cupp::ndarray", "a bool array, or True (every element) / False (none): NumPy's where=",
                       "a.where_mask({i})", with_default="a.where_mask({i})", when_none="a.where_mask({i})",
                       none_cpp="cupp::ndarray"),
    "index_array": ParamType("cupp::ndarray", "an integer array, or a Python int (a 0-d int64 array)",
                             "a.index_array({i})"),
    "arrays": ParamType("std::vector<cupp::ndarray>", "a tuple of arrays, e.g. (a, b)", "a.arrays({i})"),
    "operand": ParamType("cupp::operand", "an array or a Python scalar (a weak scalar)", "a.operand({i})",
                         with_default="a.operand_or({i}, {d})", when_none="a.optional_operand({i})",
                         none_cpp="std::optional<cupp::operand>"),
    "number": ParamType("cupp::weak_scalar", "a Python number", "a.number({i})",
                        with_default="a.number_or({i}, cupp::weak_scalar({d}))", when_none="a.optional_number({i})", none_cpp="std::optional<cupp::weak_scalar>"),
    "float": ParamType("double", "a real Python number", "a.real({i})", with_default="a.real_or({i}, {d})",
                       when_none="a.optional_real({i})", none_cpp="std::optional<double>"),
    "complex": ParamType("std::complex<double>", "a Python number, complex allowed", "a.complex_number({i})",
                         when_none="a.optional_complex({i})", none_cpp="std::optional<std::complex<double>>"),
    "int": ParamType("std::int64_t", "a Python int", "a.integer({i}, 0)", with_default="a.integer({i}, {d})",
                     when_none="a.optional_integer({i})", none_cpp="std::optional<std::int64_t>"),
    "int32": ParamType("int", "a Python int that fits a C++ int (decimals=, k=)", "a.int32({i}, 0)",
                       with_default="a.int32({i}, {d})"),
    "ints": ParamType("std::vector<std::int64_t>", "a Python int or a tuple of ints", "a.integers({i})",
                      when_none="a.optional_integers({i})", none_cpp="std::optional<std::vector<std::int64_t>>"),
    "axis": ParamType("std::optional<int>", "an axis (an int; None: the flattened array / every axis)",
                      "a.axis_or_none({i}, 0)", with_default="a.axis_or_none({i}, {d})",
                      when_none="a.optional_axis({i})", none_cpp="std::optional<int>"),
    "int_list": ParamType("std::vector<int>", "an int or a tuple of ints, as C++ ints (axes)", "a.int_list({i}, false)",
                          when_none="a.int_list({i}, true)", none_cpp="std::vector<int>"),
    "axis_pair": ParamType("std::array<int, 2>", "a tuple of two axes", "a.axis_pair({i}, {{0, 1}})",
                           with_default="a.axis_pair({i}, {d})"),
    "index_obj": ParamType("cupp::index_spec", "an int, a slice(...), a tuple of ints, or an integer array (delete/insert's obj)",
                           "a.index_obj({i})"),
    "bool_mask": ParamType("std::vector<bool>", "a 1-d bool array", "a.bool_mask({i})"),
    "axes": ParamType("cupp::axes", "None, an int, or a tuple of ints", "a.axes({i})",
                      when_none="a.axes({i})", none_cpp="cupp::axes"),
    "shape": ParamType("cupp::shape_t", "a shape: an int or a tuple of ints", "a.shape({i})",
                       when_none="a.optional_shape({i})", none_cpp="std::optional<cupp::shape_t>"),
    "ddof": ParamType("std::int64_t", "an int, or a float with an integral value (NumPy's ddof)", "a.ddof({i})",
                      when_none="a.optional_ddof({i})", none_cpp="std::optional<std::int64_t>"),
    "range": ParamType("std::pair<double, double>", "a tuple (min, max) of real numbers", "a.range({i})",
                       when_none="a.optional_range({i})", none_cpp="std::optional<std::pair<double, double>>"),
    "bool": ParamType("bool", "True or False", "a.boolean({i}, false)", with_default="a.boolean({i}, {d})",
                      when_none="a.optional_boolean({i})", none_cpp="std::optional<bool>"),
    "str": ParamType("std::string", "a string", "a.string({i}, {{}})", with_default="a.string({i}, {d})",
                     when_none="a.optional_string({i})", none_cpp="std::optional<std::string>"),
    "dtype": ParamType("cupp::dtype", "a dtype name such as 'float32'", "a.dtype_or({i}, cupp::float64)",
                       with_default="a.dtype_or({i}, {d})", when_none="a.dtype({i})",
                       none_cpp="std::optional<cupp::dtype>"),
    "order": ParamType("cupp::order", "'C' or 'F' (a memory order)", "a.memory_order({i}, \"C\")",
                       with_default="a.memory_order({i}, {d})"),
    "clip_modes": ParamType("std::vector<cupp::clip_mode>", "'raise', 'wrap' or 'clip', or a tuple of them",
                            "a.clip_modes({i}, \"raise\")", with_default="a.clip_modes({i}, {d})"),
    "casting": ParamType("cupp::casting", "'no', 'equiv', 'safe', 'same_kind' or 'unsafe'", "a.casting({i})",
                         with_default="a.casting({i})"),
    "out": ParamType("", "out=: refused, cupp eval writes its outputs to the -o files", "", when_none="",
                     kind="refuse"),
    "unsupported": ParamType("", "taken by NumPy, refused by cupp with the spec's message", "", when_none="",
                             with_default="", kind="refuse"),
    "ignored": ParamType("", "accepted and ignored (it does not change cupp's result)", "", when_none="",
                         with_default="", kind="ignore"),
}
# Python defaults as C++ for the readers' {d}: literals as they are, these names mapped.
DEFAULT_NAMES = {"True": "true", "False": "false", "float": "cupp::float64", "int": "cupp::int64",
                 "bool": "cupp::bool_", "complex": "cupp::complex128"}
# NumPy's "<no value>" default (a keyword that is absent unless given); read as None is.
NO_VALUE = "<no value>"
NUMBER = re.compile(r"^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$")
STRING = re.compile(r"^'[^'\\]*'$")


@dataclass
class Param:
    name: str
    types: list[str]        # one type, or the alternatives of a union ("int|ints")
    default: str | None     # the Python text; None: required
    keyword_only: bool
    varargs: bool           # *name: every positional argument, as arrays
    choices: list[str]      # for str: the values NumPy allows ('raise'|'wrap'|'clip')
    positional_only: bool = False  # before a '/' (shown; the binder also takes it by keyword)

    @property
    def shown(self) -> str:
        prefix = "*" if self.varargs else ""
        return f"{prefix}{self.name}" + (f"={self.default}" if self.default is not None else "")

    @property
    def type_text(self) -> str:
        if self.choices:
            return "|".join(self.choices)
        return "|".join(self.types)

    @property
    def kind(self) -> str:
        return "varargs" if self.varargs else TYPES[self.types[0]].kind

    def cpp_default(self) -> str:
        d = self.default
        if d in DEFAULT_NAMES:
            return DEFAULT_NAMES[d]
        if STRING.match(d):
            return '"' + d[1:-1] + '"'
        if d.startswith("(") and d.endswith(")"):
            return "{" + d[1:-1] + "}"
        return d

    def reader(self, i: int) -> str:
        """The C++ expression that reads this argument from `a` at position i."""
        t = TYPES[self.types[0]]
        if self.default is None:
            text = t.required
        elif self.default in ("None", NO_VALUE):
            text = t.when_none
        else:
            text = t.with_default if t.with_default is not None else t.required
        return text.replace("{i}", str(i)).replace("{d}", self.cpp_default() if self.default else "")


def split_top(text: str, sep: str) -> list[str]:
    """text split at sep outside parentheses, brackets and quotes."""
    parts, depth, quote, cur = [], 0, None, ""
    for ch in text:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        cur += ch
    parts.append(cur)
    return parts


def _check_default(p: Param, path: str, line: int, what: str) -> None:
    d = p.default
    if d is None or d in ("None", NO_VALUE) or d in DEFAULT_NAMES or NUMBER.match(d) or STRING.match(d):
        return
    if d.startswith("(") and d.endswith(")") and all(NUMBER.match(x.strip()) for x in split_top(d[1:-1], ",")):
        return
    raise SpecError(path, line, f"{what}: default '{d}' of '{p.name}' is not a Python literal cupp knows "
                                f"(None, True, False, a number, a 'string', a tuple of numbers, a dtype name)")


def parse_signature(text: str, name: str, path: str, line: int) -> list[Param]:
    """The Params of 'name(p: type = default, ..., *, q: type = default)'; SpecError otherwise."""
    what = f"signature '{text}'"
    m = re.match(r"^([A-Za-z_][\w.]*)\((.*)\)$", text)
    if not m or m.group(1) != name:
        raise SpecError(path, line, f"{what} is not of the form '{name}(param: type = default, ...)'")
    params: list[Param] = []
    keyword_only = False
    seen_default = False
    body = m.group(2).strip()
    for part in (s.strip() for s in split_top(body, ",")) if body else []:
        if part == "/":
            if keyword_only or not params or any(p.positional_only for p in params):
                raise SpecError(path, line, f"{what}: '/' must follow the positional parameters, once")
            for p in params:
                p.positional_only = True
            continue
        if part == "*":
            if keyword_only:
                raise SpecError(path, line, f"{what}: '*' is given twice")
            keyword_only = True
            continue
        head, eq, default = (s.strip() for s in part.partition("="))
        pname, colon, type_text = (s.strip() for s in head.partition(":"))
        varargs = pname.startswith("*")
        pname = pname.lstrip("*")
        if not IDENT.match(pname):
            raise SpecError(path, line, f"{what}: '{part}' is not a parameter (name: type = default)")
        if not colon or not type_text:
            raise SpecError(path, line, f"{what}: parameter '{pname}' has no type (one of {', '.join(TYPES)}, "
                                        f"'a'|'b' choices, or alternatives such as int|ints)")
        if eq and not default:
            raise SpecError(path, line, f"{what}: parameter '{pname}' has '=' but no default")
        choices: list[str] = []
        alternatives = [t.strip() for t in type_text.split("|")]
        if all(STRING.match(t) for t in alternatives):
            choices, types = alternatives, ["str"]
        else:
            types = alternatives
            for t in types:
                if t not in TYPES:
                    raise SpecError(path, line, f"{what}: parameter '{pname}' has the unknown type '{t}' "
                                                f"(known: {', '.join(TYPES)})")
            if len(types) > 1 and any(TYPES[t].kind != "value" for t in types):
                raise SpecError(path, line, f"{what}: parameter '{pname}': out, unsupported and ignored "
                                            f"cannot be alternatives")
        if any(p.name == pname for p in params):
            raise SpecError(path, line, f"{what}: parameter '{pname}' is given twice")
        if varargs:
            # Only required positional parameters may come before it (einsum's subscripts).
            if types != ["arrays"] or eq or keyword_only or any(q.default is not None or q.kind != "value"
                                                                 for q in params):
                raise SpecError(path, line, f"{what}: '*{pname}' must come first or after required positional "
                                            f"parameters, be of type arrays and have no default")
            keyword_only = True
        p = Param(pname, types, default if eq else None, keyword_only and not varargs, varargs, choices)
        if p.default is None and not varargs:
            if seen_default and not p.keyword_only:
                raise SpecError(path, line, f"{what}: '{pname}' has no default but follows a parameter that has one")
            if TYPES[types[0]].kind != "value":
                raise SpecError(path, line, f"{what}: '{pname}' ({types[0]}) needs a default")
        elif not varargs:
            seen_default = True
            _check_default(p, path, line, what)
            if p.default in ("None", NO_VALUE) and len(types) == 1 and TYPES[types[0]].when_none is None:
                raise SpecError(path, line, f"{what}: '{pname}' ({types[0]}) cannot default to None")
        params.append(p)
    return params


def shown_signature(name: str, params: list[Param]) -> str:
    """The signature as NumPy users read it: the annotated one without its types."""
    parts: list[str] = []
    star = False
    for i, p in enumerate(params):
        if i and params[i - 1].positional_only and not p.positional_only:
            parts.append("/")
        if p.keyword_only and not star:
            parts.append("*")
            star = True
        if p.varargs:
            star = True
        parts.append(p.shown)
    return f"{name}({', '.join(parts)})"
