"""The spec model: loads specs/dtypes.yaml, specs/promotion.yaml and specs/ufuncs/*.yaml into
plain dataclasses and validates them. Every problem is a SpecError naming file and line."""
from __future__ import annotations

import keyword
import os
import re
from dataclasses import dataclass, field

from declarations import Declaration, declaration
from routine_params import TYPES as PARAM_TYPES, Param, parse_signature, shown_signature
from spec_loader import Located, LocatedList, SpecError, load

CPP_KEYWORDS = {
    "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch", "char",
    "class", "compl", "const", "continue", "default", "delete", "do", "double", "else", "enum",
    "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if", "inline",
    "int", "long", "mutable", "namespace", "new", "not", "not_eq", "operator", "or", "or_eq",
    "private", "protected", "public", "register", "return", "short", "signed", "sizeof",
    "static", "struct", "switch", "template", "this", "throw", "true", "try", "typedef",
    "union", "unsigned", "using", "virtual", "void", "volatile", "while", "xor", "xor_eq",
}
IDENTIFIER = re.compile(r"^[a-z][a-z0-9_]*$")
WEAK_KINDS = ("bool", "int", "float", "complex")


def cpp_name(name: str) -> str:
    """NumPy's name as a C++ identifier: keywords get a trailing underscore (bool_, delete_)."""
    return name + "_" if name in CPP_KEYWORDS or keyword.iskeyword(name) else name


def _check_keys(node: Located, allowed: set[str], required: set[str], what: str) -> None:
    for key in node:
        if key not in allowed:
            raise SpecError(node.path, node.line_of(key),
                            f"unknown key '{key}' in {what} (allowed: {', '.join(sorted(allowed))})")
    for key in sorted(required):
        if key not in node:
            raise SpecError(node.path, node.line, f"{what} lacks the required key '{key}'")


def _expect(node, kind, path, line, what):
    if not isinstance(node, kind):
        shown = "mapping" if kind is Located else "list" if kind is LocatedList else kind.__name__
        raise SpecError(path, line, f"{what} must be a {shown}")
    return node


# ----------------------------------------------------------------------------------------------
# dtypes


@dataclass(frozen=True)
class DType:
    index: int
    name: str
    cpp: str
    char: str
    kind: str
    itemsize: int
    alignment: int
    type_num: int
    host: str
    device: str
    descr: str


@dataclass
class DTypes:
    path: str
    dtypes: list[DType]
    groups: dict[str, list[str]]
    kind_order: list[str]
    unsupported: list[str]

    def __post_init__(self):
        self.by_name = {d.name: d for d in self.dtypes}

    def resolve_list(self, value, path: str, line: int, what: str) -> list[str]:
        """A list of dtype names, or the name of a group."""
        if isinstance(value, str):
            if value in self.groups:
                return list(self.groups[value])
            if value in self.by_name:
                return [value]
            raise SpecError(path, line, f"{what}: '{value}' is neither a dtype nor a dtype group")
        if not isinstance(value, list) or not value:
            raise SpecError(path, line, f"{what} must be a dtype group name or a non-empty list of dtypes")
        for item in value:
            if item not in self.by_name:
                raise SpecError(path, line, f"{what}: undefined dtype '{item}'")
        return list(value)


def load_dtypes(path: str, shown: str) -> DTypes:
    doc = load(path, shown)
    _check_keys(doc, {"dtypes", "groups", "kind_order", "unsupported"}, {"dtypes", "groups", "kind_order"}, "dtypes.yaml")
    entries = _expect(doc["dtypes"], LocatedList, shown, doc.line_of("dtypes"), "'dtypes'")
    keys = {"name", "char", "kind", "itemsize", "alignment", "type_num", "host", "device", "descr"}
    kind_order = doc["kind_order"]
    dtypes: list[DType] = []
    seen_names, seen_chars = set(), set()
    for i, entry in enumerate(entries):
        line = entries.item_lines[i]
        _expect(entry, Located, shown, line, "a dtype entry")
        _check_keys(entry, keys, keys, "a dtype entry")
        name = str(entry["name"])
        if not IDENTIFIER.match(name):
            raise SpecError(shown, line, f"dtype name '{name}' is not a lower-case identifier")
        if name in seen_names:
            raise SpecError(shown, line, f"dtype '{name}' is defined twice")
        if entry["char"] in seen_chars:
            raise SpecError(shown, line, f"type character '{entry['char']}' is used twice")
        if entry["kind"] not in kind_order:
            raise SpecError(shown, entry.line_of("kind"), f"kind '{entry['kind']}' is not in kind_order")
        seen_names.add(name)
        seen_chars.add(entry["char"])
        dtypes.append(DType(i, name, cpp_name(name), str(entry["char"]), str(entry["kind"]), int(entry["itemsize"]),
                            int(entry["alignment"]), int(entry["type_num"]), str(entry["host"]),
                            str(entry["device"]), str(entry["descr"])))
    result = DTypes(shown, dtypes, {}, list(kind_order), list(doc.get("unsupported", [])))
    groups = _expect(doc["groups"], Located, shown, doc.line_of("groups"), "'groups'")
    for gname, members in groups.items():
        if gname in result.by_name:
            raise SpecError(shown, groups.line_of(gname), f"group '{gname}' has the name of a dtype")
        result.groups[gname] = result.resolve_list(members, shown, groups.line_of(gname), f"group '{gname}'")
    return result


# ----------------------------------------------------------------------------------------------
# promotion


@dataclass
class Promotion:
    safe: dict[str, set[str]]            # a -> every dtype a casts to safely (itself included)
    table: dict[tuple[str, str], str]    # (a, b) -> promote_types(a, b)
    weak: dict[str, dict[str, str]]      # weak kind -> array dtype (or 'none') -> result


def load_promotion(path: str, shown: str, dt: DTypes) -> Promotion:
    doc = load(path, shown)
    _check_keys(doc, {"safe_casts", "columns", "table", "weak_scalars"}, {"safe_casts", "columns", "table", "weak_scalars"}, "promotion.yaml")
    names = [d.name for d in dt.dtypes]

    safe_node = _expect(doc["safe_casts"], Located, shown, doc.line_of("safe_casts"), "'safe_casts'")
    safe: dict[str, set[str]] = {}
    for a, targets in safe_node.items():
        line = safe_node.line_of(a)
        if a not in dt.by_name:
            raise SpecError(shown, line, f"safe_casts: undefined dtype '{a}'")
        if targets == "all":
            safe[a] = set(names)
        else:
            targets = targets if isinstance(targets, list) else None
            if targets is None:
                raise SpecError(shown, line, f"safe_casts['{a}'] must be a list of dtypes or 'all'")
            for t in targets:
                if t not in dt.by_name:
                    raise SpecError(shown, line, f"safe_casts['{a}']: undefined dtype '{t}'")
            safe[a] = set(targets) | {a}
    for a in names:
        if a not in safe:
            raise SpecError(shown, doc.line_of("safe_casts"), f"safe_casts has no entry for '{a}'")

    columns = doc["columns"]
    if list(columns) != names:
        raise SpecError(shown, doc.line_of("columns"), "columns must list every dtype in the order of dtypes.yaml")
    rows = _expect(doc["table"], Located, shown, doc.line_of("table"), "'table'")
    table: dict[tuple[str, str], str] = {}
    for a, row in rows.items():
        line = rows.line_of(a)
        if a not in dt.by_name:
            raise SpecError(shown, line, f"table: undefined dtype '{a}'")
        if not isinstance(row, list) or len(row) != len(names):
            raise SpecError(shown, line, f"table['{a}'] must have {len(names)} cells, one per column")
        for b, cell in zip(names, row):
            if cell not in dt.by_name:
                raise SpecError(shown, line, f"table['{a}']['{b}']: undefined dtype '{cell}'")
            table[(a, b)] = cell
    for a in names:
        if a not in rows:
            raise SpecError(shown, doc.line_of("table"), f"table has no row for '{a}'")
    for a in names:
        line = rows.line_of(a)
        for b in names:
            c = table[(a, b)]
            if c != table[(b, a)]:
                raise SpecError(shown, line, f"table is not symmetric: {a},{b} -> {c} but {b},{a} -> {table[(b, a)]}")
            if c not in safe[a] or c not in safe[b]:
                raise SpecError(shown, line, f"table[{a}][{b}] = {c} disagrees with safe_casts: "
                                             f"{a if c not in safe[a] else b} does not cast safely to {c}")
            if b in safe[a] and c != b:
                raise SpecError(shown, line, f"table[{a}][{b}] = {c} disagrees with safe_casts: {a} casts safely to {b}, "
                                             f"so the promotion must be {b}")

    weak_node = _expect(doc["weak_scalars"], Located, shown, doc.line_of("weak_scalars"), "'weak_scalars'")
    weak: dict[str, dict[str, str]] = {}
    for kind, mapping in weak_node.items():
        line = weak_node.line_of(kind)
        if kind not in WEAK_KINDS:
            raise SpecError(shown, line, f"weak_scalars: unknown scalar kind '{kind}' (allowed: {', '.join(WEAK_KINDS)})")
        _expect(mapping, Located, shown, line, f"weak_scalars['{kind}']")
        weak[kind] = {}
        for a in names + ["none"]:
            if a not in mapping:
                raise SpecError(shown, line, f"weak_scalars['{kind}'] has no entry for '{a}'")
        for a, r in mapping.items():
            if a != "none" and a not in dt.by_name:
                raise SpecError(shown, mapping.line_of(a), f"weak_scalars['{kind}']: undefined dtype '{a}'")
            if r not in dt.by_name:
                raise SpecError(shown, mapping.line_of(a), f"weak_scalars['{kind}']['{a}']: undefined dtype '{r}'")
            if a != "none" and r not in safe[a]:
                raise SpecError(shown, mapping.line_of(a),
                                f"weak_scalars['{kind}']['{a}'] = {r}: a weak scalar may not demote the array's dtype")
            weak[kind][a] = r
    for kind in WEAK_KINDS:
        if kind not in weak:
            raise SpecError(shown, doc.line_of("weak_scalars"), f"weak_scalars has no entry for '{kind}'")
    return Promotion(safe, table, weak)


# ----------------------------------------------------------------------------------------------
# ops


@dataclass(frozen=True)
class Loop:
    ins: tuple[str, ...]
    outs: tuple[str, ...]
    body: str
    line: int
    raises: bool = False  # the body calls cupp::dev::raise_error (body_raises): the engine reads the flag


    def signature(self) -> str:
        return ", ".join(self.ins) + " -> " + ", ".join(self.outs)


@dataclass
class Op:
    path: str
    name: str
    cpp: str
    doc: str
    nin: int
    nout: int
    identity: str | None
    commutative: bool
    aliases: list[str]
    ulp: dict[str, int]
    int_inputs_as: str | None = None  # a promoter: all-integer (or bool) inputs resolve as this dtype
    bool_inputs_error: str | None = None  # TypeError message when every input is bool (subtract)
    raises: str | None = None  # "ValueError: message" for data-dependent errors (device error flag)
    weak_scalars_by_truth: bool = False  # weak scalars count by truth value (logical ops: no OverflowError)
    # NumPy's reduce/accumulate default for add and multiply: bool and integers narrower than 64 bits
    # reduce into int64 (uint64 for unsigned) unless dtype= says otherwise.
    reduce_widens_ints: bool = False
    # NumPy 2's comparison promoter: the result where x1 < x2 and where x1 > x2, used when a weak
    # Python int does not fit the integer dtype it meets (then every element compares one way).
    python_int_out_of_range: tuple[bool, bool] | None = None
    loops: list[Loop] = field(default_factory=list)


RAISABLE = {"ValueError", "OverflowError", "IndexError", "TypeError"}
OP_KEYS = {"name", "doc", "nin", "nout", "identity", "commutative", "aliases", "ulp", "int_inputs_as", "bool_inputs_error", "raises", "weak_scalars_by_truth",
           "reduce_widens_ints", "python_int_out_of_range", "body", "loops"}
OUT_OF_RANGE_KEYS = ("when_less", "when_greater")

# The one rule for which loops raise (runtime/src/loader/spec_parser.cpp states it too): a loop
# may set the device error flag exactly when its body names cupp::dev::raise_error (any mention
# of the word counts, so a call is never missed). Only those loops make the engine read the flag
# after their kernel (a device-to-host copy and a stream synchronisation); the device library's
# helpers never raise on their own.
RAISE_CALL = re.compile(r"\braise_error\b", re.ASCII)


def body_raises(body: str) -> bool:
    return RAISE_CALL.search(body) is not None
LOOP_KEYS = {"sig", "each", "body"}
SIG = re.compile(r"^\s*([\w\s,]+?)\s*->\s*([\w\s,]+?)\s*$")


def _parse_sig(text, path, line):
    m = SIG.match(str(text))
    if not m:
        raise SpecError(path, line, f"loop signature '{text}' is not of the form 'a, b -> c'")
    ins = tuple(t.strip() for t in m.group(1).split(","))
    outs = tuple(t.strip() for t in m.group(2).split(","))
    if any(not t for t in ins + outs):
        raise SpecError(path, line, f"loop signature '{text}' has an empty type")
    return ins, outs


def load_op(path: str, shown: str, dt: DTypes, promo: Promotion) -> Op:
    doc = load(path, shown)
    _check_keys(doc, OP_KEYS, {"name", "doc", "nin", "nout", "loops"}, "an op spec")
    name = doc["name"]
    if not isinstance(name, str) or not IDENTIFIER.match(name):
        raise SpecError(shown, doc.line_of("name"), f"op name '{name}' is not a lower-case identifier")
    stem = os.path.splitext(os.path.basename(path))[0]
    if stem != name:
        raise SpecError(shown, doc.line_of("name"), f"op '{name}' must live in a file named {name}.yaml")
    nin, nout = doc["nin"], doc["nout"]
    if not isinstance(nin, int) or not 1 <= nin <= 3:
        raise SpecError(shown, doc.line_of("nin"), "nin must be 1, 2 or 3")
    if not isinstance(nout, int) or not 1 <= nout <= 2:
        raise SpecError(shown, doc.line_of("nout"), "nout must be 1 or 2")
    ulp = {}
    if "ulp" in doc:
        node = _expect(doc["ulp"], Located, shown, doc.line_of("ulp"), "'ulp'")
        for d, bound in node.items():
            if d not in dt.by_name:
                raise SpecError(shown, node.line_of(d), f"ulp: undefined dtype '{d}'")
            if not isinstance(bound, int) or bound < 0:
                raise SpecError(shown, node.line_of(d), "ulp bounds must be non-negative integers")
            ulp[d] = bound
    aliases = list(_expect(doc["aliases"], LocatedList, shown, doc.line_of("aliases"), "'aliases'")) if "aliases" in doc else []
    for a in aliases:
        if not isinstance(a, str) or not IDENTIFIER.match(a):
            raise SpecError(shown, doc.line_of("aliases"), f"alias '{a}' is not a lower-case identifier")
    identity = doc.get("identity")
    op = Op(shown, name, cpp_name(name), str(doc["doc"]), nin, nout,
            None if identity is None else str(identity), bool(doc.get("commutative", False)), aliases, ulp)
    if "int_inputs_as" in doc:
        target = doc["int_inputs_as"]
        if target not in dt.by_name:
            raise SpecError(shown, doc.line_of("int_inputs_as"), f"int_inputs_as: undefined dtype '{target}'")
        op.int_inputs_as = target
    if "bool_inputs_error" in doc:
        message = doc["bool_inputs_error"]
        if not isinstance(message, str) or not message.strip():
            raise SpecError(shown, doc.line_of("bool_inputs_error"), "bool_inputs_error must be a message")
        op.bool_inputs_error = message
    if "weak_scalars_by_truth" in doc:
        flag = doc["weak_scalars_by_truth"]
        if not isinstance(flag, bool):
            raise SpecError(shown, doc.line_of("weak_scalars_by_truth"), "weak_scalars_by_truth must be true or false")
        op.weak_scalars_by_truth = flag
    if "reduce_widens_ints" in doc:
        line = doc.line_of("reduce_widens_ints")
        flag = doc["reduce_widens_ints"]
        if not isinstance(flag, bool):
            raise SpecError(shown, line, "reduce_widens_ints must be true or false")
        if nin != 2 or nout != 1:
            raise SpecError(shown, line, "reduce_widens_ints needs a reducing op: nin=2, nout=1")
        op.reduce_widens_ints = flag
    if "raises" in doc:
        node = _expect(doc["raises"], Located, shown, doc.line_of("raises"), "'raises'")
        _check_keys(node, {"type", "message"}, {"type", "message"}, "'raises'")
        if node["type"] not in RAISABLE:
            raise SpecError(shown, node.line_of("type"),
                            f"raises: type '{node['type']}' is not one of {', '.join(sorted(RAISABLE))}")
        op.raises = f"{node['type']}: {node['message']}"
    if "python_int_out_of_range" in doc:
        line = doc.line_of("python_int_out_of_range")
        node = _expect(doc["python_int_out_of_range"], Located, shown, line, "'python_int_out_of_range'")
        _check_keys(node, set(OUT_OF_RANGE_KEYS), set(OUT_OF_RANGE_KEYS), "'python_int_out_of_range'")
        for key in OUT_OF_RANGE_KEYS:
            if not isinstance(node[key], bool):
                raise SpecError(shown, node.line_of(key), f"python_int_out_of_range: {key} must be true or false")
        if nin != 2 or nout != 1:
            raise SpecError(shown, line, "python_int_out_of_range needs a comparison: nin=2, nout=1")
        op.python_int_out_of_range = (node["when_less"], node["when_greater"])
    default_body = doc.get("body")

    loops_node = _expect(doc["loops"], LocatedList, shown, doc.line_of("loops"), "'loops'")
    if not loops_node:
        raise SpecError(shown, doc.line_of("loops"), "an op needs at least one loop")
    for i, entry in enumerate(loops_node):
        line = loops_node.item_lines[i]
        _expect(entry, Located, shown, line, "a loop")
        _check_keys(entry, LOOP_KEYS, {"sig"}, "a loop")
        ins, outs = _parse_sig(entry["sig"], shown, line)
        if len(ins) != nin or len(outs) != nout:
            raise SpecError(shown, line, f"loop '{entry['sig']}' has {len(ins)} inputs and {len(outs)} outputs; "
                                         f"the op declares nin={nin}, nout={nout}")
        body = entry.get("body", default_body)
        if not isinstance(body, str) or not body.strip():
            raise SpecError(shown, line, "loop has no body (give 'body' in the loop or at the op's top level)")
        for k in range(nout):
            if not re.search(rf"\bout{k}\b", body):
                raise SpecError(shown, line, f"loop body never assigns out{k}")
        raises = body_raises(body)
        if raises and op.raises is None:
            raise SpecError(shown, line, "loop body calls cupp::dev::raise_error but the op declares no 'raises'")
        variables: dict[str, list[str]] = {}
        if "each" in entry:
            each = _expect(entry["each"], Located, shown, entry.line_of("each"), "'each'")
            for var, values in each.items():
                if var in dt.by_name:
                    raise SpecError(shown, each.line_of(var), f"type variable '{var}' has the name of a dtype")
                variables[var] = dt.resolve_list(values, shown, each.line_of(var), f"each['{var}']")
            lengths = {len(v) for v in variables.values()}
            if len(lengths) > 1:
                raise SpecError(shown, entry.line_of("each"), "the type variables of 'each' expand in step and need lists of equal length")
        for t in ins + outs:
            if t not in dt.by_name and t not in variables:
                raise SpecError(shown, line, f"loop '{entry['sig']}': undefined dtype or type variable '{t}'")
        for var in variables:
            if var not in ins + outs:
                raise SpecError(shown, entry.line_of("each"), f"type variable '{var}' is not used in '{entry['sig']}'")
        count = len(next(iter(variables.values()))) if variables else 1
        for j in range(count):
            def subst(t, j=j):
                return variables[t][j] if t in variables else t
            op.loops.append(Loop(tuple(map(subst, ins)), tuple(map(subst, outs)), body.strip(), line, raises))
    if op.raises is not None and not any(loop.raises for loop in op.loops):
        raise SpecError(shown, doc.line_of("raises"), "'raises' is declared but no loop body calls cupp::dev::raise_error")

    # Duplicate and unreachable loops: resolution takes the first loop whose inputs the call's
    # inputs cast to safely, so a loop is dead when an earlier loop accepts all of its inputs.
    for j, loop in enumerate(op.loops):
        for earlier in op.loops[:j]:
            if earlier.ins == loop.ins:
                raise SpecError(shown, loop.line, f"duplicate loop for inputs ({', '.join(loop.ins)}): "
                                                  f"already given at line {earlier.line}")
            if all(b in promo.safe[a] for a, b in zip(loop.ins, earlier.ins)):
                raise SpecError(shown, loop.line, f"loop ({loop.signature()}) is mis-ordered: it can never be chosen, "
                                                  f"since the earlier loop ({earlier.signature()}) at line {earlier.line} "
                                                  f"accepts its inputs safely")
    return op


@dataclass
class Specs:
    dtypes: DTypes
    promotion: Promotion
    ops: list[Op]
    sources: list[str]
    families: list[RoutineFamily] = field(default_factory=list)


def load_specs(root: str) -> Specs:
    """Loads and validates everything under root/specs; raises SpecError on the first problem."""
    spec_dir = os.path.join(root, "specs")

    def shown(p):
        return os.path.relpath(p, root)

    dt_path = os.path.join(spec_dir, "dtypes.yaml")
    pr_path = os.path.join(spec_dir, "promotion.yaml")
    dt = load_dtypes(dt_path, shown(dt_path))
    promo = load_promotion(pr_path, shown(pr_path), dt)
    ops: list[Op] = []
    sources = [shown(dt_path), shown(pr_path)]
    op_dir = os.path.join(spec_dir, "ufuncs")
    names: dict[str, str] = {}
    for fname in sorted(os.listdir(op_dir)) if os.path.isdir(op_dir) else []:
        if not fname.endswith(".yaml"):
            continue
        path = os.path.join(op_dir, fname)
        op = load_op(path, shown(path), dt, promo)
        for n in [op.name] + op.aliases:
            if n in names:
                raise SpecError(op.path, 1, f"the name '{n}' is already used by {names[n]}")
            names[n] = op.path
        ops.append(op)
        sources.append(shown(path))
    families = load_families(os.path.join(spec_dir, "routines"), shown, ops, names)
    sources += [f.path for f in families]
    return Specs(dt, promo, ops, sources, families)


# docs/api/ pages that are not a family's: a family's page is docs/api/<family>.md.
RESERVED_PAGES = {"README", "dtypes", "promotion", "ufuncs"}


def load_families(routine_dir: str, shown, ops: list[Op], op_names: dict[str, str]) -> list[RoutineFamily]:
    """specs/routines/*.yaml, sorted by file name. A routine's name or alias is unique among every
    family's and differs from each ufunc's name and alias (cupp eval and cupp ops look both up)."""
    families: list[RoutineFamily] = []
    names: dict[str, str] = {}
    tables: dict[str, str] = {}
    for fname in sorted(os.listdir(routine_dir)) if os.path.isdir(routine_dir) else []:
        if not fname.endswith(".yaml"):
            continue
        path = os.path.join(routine_dir, fname)
        family = load_family(path, shown(path), ops)
        if family.name in RESERVED_PAGES:
            raise SpecError(family.path, 1, f"family '{family.name}' would overwrite docs/api/{family.name}.md, "
                                            f"which is another page's")
        if family.table in tables:
            raise SpecError(family.path, 1, f"table '{family.table}' is already the table of {tables[family.table]}")
        tables[family.table] = family.path
        for r in family.routines:
            for n, line in [(r.name, r.line)] + [(a, r.aliases_line) for a in r.aliases]:
                if n in op_names:
                    raise SpecError(r.path, line, f"the name '{n}' is already used by the ufunc of {op_names[n]}")
                if n in names:
                    raise SpecError(r.path, line, f"the name '{n}' is already used by a routine of {names[n]}")
                names[n] = f"{r.path}:{line}"
        families.append(family)
    return families


# ----------------------------------------------------------------------------------------------
# routine families: specs/routines/<family>.yaml (reductions, scans)

# The default result-dtype rules a routine may name (docs/writing-specs.md), with what each says.
RESULT_RULES = {
    "keep": "the input's dtype",
    "widen_ints": "bool and signed integers narrower than 64 bits give int64, narrower unsigned integers uint64; "
                  "other dtypes keep theirs (the folded ufunc's reduce_widens_ints)",
    "float_for_ints": "bool and integers give float64; float16 and bfloat16 compute in float32 and give their own "
                      "dtype; other dtypes keep theirs",
    "real_float_for_ints": "as float_for_ints, and complex gives the real dtype of its precision",
    "index": "int64 positions (NumPy's intp)",
    "count": "int64 counts (NumPy's intp)",
    "bool": "bool",
}
# What a NaN in the input does.
NAN_POLICIES = {
    "propagate": "a NaN makes the result NaN (maximum/minimum: the NaN wins)",
    "nan_wins": "a NaN is the extreme: the position of the first NaN is the result",
    "nonzero": "a NaN counts as nonzero (true)",
    "as_identity": "a NaN counts as the identity (0 for sums, 1 for products); an all-NaN slice gives the identity",
    "skip": "NaN is ignored; an all-NaN slice gives NaN",
    "skip_or_raise": "NaN is ignored; an all-NaN slice is ValueError(\"All-NaN slice encountered\")",
}
# What a routine gives for an empty reduction (or an empty input, for scans), besides raising.
EMPTY_KINDS = {
    "identity": "the folded ufunc's identity",
    "nan": "NaN (0 / 0)",
    "empty_result": "an empty result",
}
# NumPy keyword arguments a signature may have (after its positional array arguments).
ROUTINE_KEYWORDS = ("axis", "dtype", "out", "ddof", "keepdims", "initial", "where", "n", "prepend", "append",
                    "include_initial", "to_end", "to_begin")
FAMILY_KEYS = {"family", "label", "module", "namespace", "doc", "header", "table", "guide", "routines", "methods",
               "folding"}
# A family's folding: {options, include}: the C++ option struct a routine that folds a ufunc takes
# (a routine may name another with `options:`) and the public header declaring it. codegen then
# writes those routines' C++ declarations and definitions (generated/include/cupp/generated/
# <family>_folds.hpp, generated/src/folding_routines.cpp) from folds:, result:, nan: and the
# signature, over engine::fold (runtime/src/engine/folds.hpp).
FOLDING_KEYS = {"options", "include"}
# The option structs engine::fold takes, and whether they carry initial= and where=.
FOLD_OPTIONS = {"reduce_options": True, "scan_options": False, "cumulative_options": False}

# A routine's keys: what every routine has, its eval binding (a typed signature's call), and the
# facts of a reduction or scan (all four or none).
FACT_KEYS = {"folds", "empty", "result", "nan"}
ROUTINE_KEYS = {"name", "aliases", "cpp", "signature", "summary", "notes", "raises", "call", "calls", "returns",
                "binding", "refuses", "no_eval", "options", "declare"} | FACT_KEYS
CALL_KEYS = {"if", "call", "returns"}
RAISES_KEYS = {"error", "when"}
# The errors a routine's spec may say it raises (cupp/errors.hpp).
ROUTINE_ERRORS = {"TypeError", "ValueError", "IndexError", "AxisError", "OverflowError", "LinAlgError"}
METHOD_KEYS = {"name", "signature", "summary"}
CPP_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
SIGNATURE = re.compile(r"^([A-Za-z_][\w.]*)\((.*)\)$")


@dataclass
class Call:
    """One way a generated binding calls C++: `call` with {param} placeholders; `when`, a bool
    parameter that selects it (None: the last, unconditional call); `returns`, the fields of the
    result struct that make the tuple cupp eval gives (empty: the result as it is)."""
    call: str
    when: str | None = None
    returns: list[str] = field(default_factory=list)


@dataclass
class Routine:
    path: str
    line: int
    name: str
    aliases: list[str]
    cpp: str            # the C++ function: cupp::<cpp>
    signature: str      # as NumPy users read it (a typed signature without its types)
    summary: str
    folds: str | None   # the ufunc whose reduce/accumulate it is; None: composite
    identity: str | None  # that ufunc's identity
    empty: str          # a key of EMPTY_KINDS, or "raises"; "" for a routine without reduction facts
    empty_error: str | None  # "ValueError: message" when empty is "raises"
    result: str         # a key of RESULT_RULES; "" without reduction facts
    nan: str            # a key of NAN_POLICIES; "" without reduction facts
    keywords: list[str]  # NumPy's keywords, in the signature's order
    notes: str | None
    aliases_line: int = 0
    typed: str = ""     # the typed signature as the spec gives it ("" for an untyped one)
    params: list[Param] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)  # the generated binding's calls; empty: none
    binding: str = "none"   # "generated", "manual" (a hand binding in tools/cupp/eval/) or "none" (no_eval)
    raises: list[tuple[str, str]] = field(default_factory=list)  # (error: message, when)
    refuses: dict[str, str] = field(default_factory=dict)  # unsupported parameter -> message
    no_eval: str = ""   # why cupp eval has no binding (binding "none"), e.g. an in-place routine
    fold_options: str = ""  # a generated folding routine's C++ option struct ("" when its C++ is by hand)
    declared: Declaration | None = None  # `declare: generated`: its C++ declaration (declarations.py)

    @property
    def has_facts(self) -> bool:
        return bool(self.result)

    @property
    def first_param(self) -> str:
        """The name of the array parameter (a, x), for the C++ declaration."""
        return self.params[0].name if self.params else "a"

    def fold_rules(self, name: str) -> list[str]:
        """engine::fold_rules' designated initializers for a generated folding routine called name
        (its own or an alias): what its result:, nan: and signature say beyond the ufunc's reduce
        (or accumulate)."""
        rules = [f'.name = "{name}"']
        if self.result == "bool":
            rules.append(".result = type_id::bool_")
        elif self.result == "count":
            rules += [".result = type_id::int64", ".nonzero = true"]
        if self.nan == "as_identity":
            rules.append(".nan_as_identity = true")
        if FOLD_OPTIONS[self.fold_options]:
            if "initial" not in self.keywords:
                rules.append(".takes_initial = false")
            if "where" not in self.keywords:
                rules.append(".takes_where = false")
        return rules

    def when_text(self, c: "Call") -> str:
        """When a conditional call is made, for the page: `flag=True`, or `param` given."""
        p = next(q for q in self.params if q.name == c.when)
        return f"`{c.when}=True`" if p.types == ["bool"] else f"`{c.when}` given"

    def shown_calls(self) -> list[str]:
        """The generated binding's C++ calls with each {param} as the parameter's name (docs)."""
        return [PLACEHOLDER.sub(lambda m: m.group(1), c.call) for c in self.calls]

    def cpp_lines(self) -> list[str]:
        """`cupp ops NAME`'s C++ lines: each call, a conditional one with when it is made."""
        return ["C++" + (f" (with {self.when_text(c)})" if c.when else "") + ": " + shown
                for c, shown in zip(self.calls, self.shown_calls())]

    def empty_text(self) -> str:
        """The empty behaviour in one phrase (docs and the C++ table)."""
        if self.empty == "raises":
            return self.empty_error or ""
        if self.empty == "identity":
            return f"identity ({self.identity})"
        return self.empty


@dataclass
class Method:
    name: str
    signature: str
    summary: str


@dataclass
class RoutineFamily:
    path: str
    name: str
    doc: str
    header: str         # the public header declaring the routines, as #include names it
    table: str          # the C++ function returning the family's routine_info table
    guide: str          # the hand-written guide under docs/ ("" for none)
    routines: list[Routine]
    methods: list[Method]
    label: str = ""     # what `cupp ops` calls it ("N <label> routines"); the family's name by default
    module: str = "core"  # the library that implements it: core (cupp::core) or a module (cupp::fft, ...)
    namespace: str = ""   # the Python namespace its names carry (fft: fft.fftfreq); "" top level
    folding_include: str = ""  # the header of the folding routines' option structs ("": none generated)

    def declared_routines(self) -> list[Routine]:
        """The routines whose C++ declaration codegen writes (declare: generated)."""
        return [r for r in self.routines if r.declared]

    def declarations_path(self) -> str:
        """Where their header goes: core's generated/include, a module's generated/modules/<m>/include."""
        base = "generated/include" if self.module == "core" else f"generated/modules/{self.module}/include"
        return f"{base}/cupp/generated/{self.name}_declarations.hpp"

    def folding_routines(self) -> list[Routine]:
        """The routines whose C++ codegen writes (they fold a ufunc; see FOLDING_KEYS)."""
        return [r for r in self.routines if r.fold_options]


def _text(node: Located, key: str, what: str) -> str:
    value = node[key]
    if not isinstance(value, str) or not value.strip():
        raise SpecError(node.path, node.line_of(key), f"{what}: '{key}' must be a non-empty string")
    return " ".join(value.split())


def _signature_keywords(text: str, name: str, path: str, line: int) -> list[str]:
    """The keywords of 'name(a, axis=None, *, keepdims=False)', checked: NumPy's form, known keywords."""
    m = SIGNATURE.match(text)
    if not m or m.group(1) != name:
        raise SpecError(path, line, f"signature '{text}' is not of the form '{name}(a, keyword=default, ...)'")
    keywords: list[str] = []
    positional = True
    for part in (p.strip() for p in m.group(2).split(",")):
        if part in ("/", "*"):
            continue
        key, eq, default = (s.strip() for s in part.partition("="))
        if not IDENTIFIER.match(key) or (eq and not default):
            raise SpecError(path, line, f"signature '{text}': '{part}' is not a parameter")
        if not eq:
            if not positional:
                raise SpecError(path, line, f"signature '{text}': '{key}' has no default but follows a keyword")
            continue
        positional = False
        if key not in ROUTINE_KEYWORDS:
            raise SpecError(path, line, f"signature '{text}': unknown keyword '{key}' "
                                        f"(known: {', '.join(ROUTINE_KEYWORDS)})")
        if key in keywords:
            raise SpecError(path, line, f"signature '{text}': keyword '{key}' is given twice")
        keywords.append(key)
    if positional:
        raise SpecError(path, line, f"signature '{text}' takes no keyword arguments")
    return keywords


def _choice(node: Located, key: str, choices: dict[str, str], what: str) -> str:
    value = node[key]
    if not isinstance(value, str) or value not in choices:
        raise SpecError(node.path, node.line_of(key),
                        f"{what}: unknown {key} rule '{value}' (allowed: {', '.join(choices)})")
    return value


PLACEHOLDER = re.compile(r"\{([A-Za-z_]\w*)\}")


def _load_calls(entry: Located, params: list[Param], what: str) -> list[Call]:
    """A generated binding's calls: `calls` (each {if: a bool parameter, call, returns}) and then
    `call` (with its `returns`), the one made when no `if` holds."""
    path = entry.path
    by_name = {p.name: p for p in params}
    calls: list[Call] = []

    def returns_of(node: Located, key_line: int) -> list[str]:
        if "returns" not in node:
            return []
        fields = _expect(node["returns"], LocatedList, path, key_line, f"{what}: 'returns'")
        if not fields or not all(isinstance(f, str) and CPP_IDENTIFIER.match(f) for f in fields):
            raise SpecError(path, key_line, f"{what}: 'returns' must list the result struct's fields, e.g. "
                                            f"[values, counts]")
        return list(fields)

    if "calls" in entry:
        nodes = _expect(entry["calls"], LocatedList, path, entry.line_of("calls"), f"{what}: 'calls'")
        for i, node in enumerate(nodes):
            _expect(node, Located, path, nodes.item_lines[i], f"{what}: a conditional call")
            _check_keys(node, CALL_KEYS, {"if", "call"}, f"{what}: a conditional call")
            cond = node["if"]
            if cond not in by_name or not (by_name[cond].types == ["bool"] or by_name[cond].default == "None"):
                raise SpecError(path, node.line_of("if"), f"{what}: 'if: {cond}' must name a bool parameter (the call "
                                                          f"when it is True) or one that defaults to None (when given)")
            calls.append(Call(_text(node, "call", what), cond, returns_of(node, node.line_of("returns"))))
    if "call" not in entry:
        raise SpecError(path, entry.line, f"{what}: a typed signature needs 'call' (the C++ call its cupp eval "
                                          f"binding makes), or 'binding: manual'")
    calls.append(Call(_text(entry, "call", what), None, returns_of(entry, entry.line_of("returns"))))
    used: set[str] = {c.when for c in calls if c.when}
    for c in calls:
        for ph in PLACEHOLDER.findall(c.call):
            if ph not in by_name:
                raise SpecError(path, entry.line_of("call"), f"{what}: the call names '{{{ph}}}', which is not a "
                                                             f"parameter of the signature")
            if by_name[ph].kind not in ("value", "varargs"):
                raise SpecError(path, entry.line_of("call"), f"{what}: '{{{ph}}}' is {by_name[ph].types[0]}, "
                                                             f"which the C++ call cannot take")
            used.add(ph)
    for p in params:
        if p.kind in ("value", "varargs") and p.name not in used:
            raise SpecError(path, entry.line_of("call"), f"{what}: parameter '{p.name}' is not passed to the C++ "
                                                         f"call (name it as {{{p.name}}}, or type it ignored)")
    return calls


def load_routine(entry: Located, ops: dict[str, Op], namespace: str = "", folding: str = "") -> Routine:
    path = entry.path
    _check_keys(entry, ROUTINE_KEYS, {"name", "signature", "summary"}, "a routine")
    name = entry["name"]
    if not isinstance(name, str) or not IDENTIFIER.match(name):
        raise SpecError(path, entry.line_of("name"), f"routine name '{name}' is not a lower-case identifier")
    what = f"routine '{name}'"
    aliases = []
    if "aliases" in entry:
        aliases = list(_expect(entry["aliases"], LocatedList, path, entry.line_of("aliases"), f"{what}: 'aliases'"))
        for a in aliases:
            if not isinstance(a, str) or not IDENTIFIER.match(a):
                raise SpecError(path, entry.line_of("aliases"), f"{what}: alias '{a}' is not a lower-case identifier")
    cpp = entry.get("cpp", cpp_name(name))
    if not isinstance(cpp, str) or not CPP_IDENTIFIER.match(cpp):
        raise SpecError(path, entry.line_of("cpp"), f"{what}: cpp '{cpp}' is not a C++ identifier")
    signature = _text(entry, "signature", what)
    sig_line = entry.line_of("signature")
    # A typed signature (p: type = default) declares the binding's parameters; an untyped one
    # (reductions and scans, whose bindings are hand-written) only NumPy's keywords.
    typed = ":" in signature.split("(", 1)[-1]
    params: list[Param] = []
    if typed:
        params = parse_signature(signature, name, path, sig_line)
        keywords = [p.name for p in params if p.default is not None]
        shown = shown_signature(name, params)
    else:
        keywords = _signature_keywords(signature, name, path, sig_line)
        shown = signature

    given_facts = FACT_KEYS & set(entry)
    if given_facts and given_facts != FACT_KEYS:
        raise SpecError(path, entry.line, f"{what}: a reduction or scan gives all of {', '.join(sorted(FACT_KEYS))} "
                                          f"(it lacks {', '.join(sorted(FACT_KEYS - given_facts))})")
    op = None
    empty, empty_error, result, nan = "", None, "", ""
    if given_facts:
        folds = entry["folds"]
        if folds != "none":
            op = ops.get(folds) if isinstance(folds, str) else None
            if op is None:
                raise SpecError(path, entry.line_of("folds"), f"{what}: folds '{folds}', which is not a ufunc of "
                                                              f"specs/ufuncs/ (give an op's name, or 'none' for a "
                                                              f"composite routine)")
            if op.nin != 2 or op.nout != 1:
                raise SpecError(path, entry.line_of("folds"),
                                f"{what}: folds '{folds}', which is not binary (nin=2, nout=1)")
        empty_node = entry["empty"]
        if isinstance(empty_node, Located):
            _check_keys(empty_node, {"raises", "message"}, {"raises", "message"}, f"{what}: 'empty'")
            if empty_node["raises"] not in RAISABLE:
                raise SpecError(path, empty_node.line_of("raises"),
                                f"{what}: empty raises '{empty_node['raises']}', which is not one of "
                                f"{', '.join(sorted(RAISABLE))}")
            empty_error = f"{empty_node['raises']}: {_text(empty_node, 'message', what)}"
            empty = "raises"
        else:
            empty = _choice(entry, "empty", EMPTY_KINDS, what)
        if empty == "identity" and (op is None or op.identity is None):
            raise SpecError(path, entry.line_of("empty"), f"{what}: empty is 'identity' but " +
                            (f"'{folds}' has no identity" if op else "it folds no ufunc"))
        result = _choice(entry, "result", RESULT_RULES, what)
        # The widening rule is the ufunc's (reduce_widens_ints, which the engine's default result
        # reads): a routine may not claim it for a ufunc that does not widen, nor deny it for one that does.
        if result == "widen_ints" and (op is None or not op.reduce_widens_ints):
            raise SpecError(path, entry.line_of("result"),
                            f"{what}: result 'widen_ints' needs a folded ufunc whose spec says reduce_widens_ints"
                            + (f" ('{folds}' does not)" if op else " (it folds none)"))
        if result == "keep" and op is not None and op.reduce_widens_ints:
            raise SpecError(path, entry.line_of("result"), f"{what}: result 'keep' contradicts '{folds}', whose "
                                                           f"reduce widens integers (reduce_widens_ints)")
        nan = _choice(entry, "nan", NAN_POLICIES, what)
    if "initial" in keywords and given_facts and op is None:
        raise SpecError(path, sig_line, f"{what}: initial= needs a routine that folds a ufunc")
    # A routine that folds a ufunc in a family with `folding:` is generated (its C++ too).
    fold_options = ""
    if "options" in entry and (op is None or not folding):
        raise SpecError(path, entry.line_of("options"), f"{what}: 'options' (the option struct of a generated "
                                                        f"folding routine) needs folds: <ufunc> and the family's "
                                                        f"'folding'")
    if op is not None and folding:
        fold_options = entry.get("options", folding)
        if fold_options not in FOLD_OPTIONS:
            raise SpecError(path, entry.line_of("options") if "options" in entry else entry.line,
                            f"{what}: option struct '{fold_options}' is not one engine::fold takes "
                            f"({', '.join(FOLD_OPTIONS)})")
        if nan == "as_identity" and op.name not in ("add", "multiply"):
            raise SpecError(path, entry.line_of("nan"), f"{what}: nan 'as_identity' is generated for add and "
                                                        f"multiply only ('{op.name}')")
        if not typed:
            raise SpecError(path, sig_line, f"{what}: a generated folding routine needs a typed signature")

    refuses: dict[str, str] = {}
    if "refuses" in entry:
        node = _expect(entry["refuses"], Located, path, entry.line_of("refuses"), f"{what}: 'refuses'")
        for key in node:
            if not any(p.name == key and p.types == ["unsupported"] for p in params):
                raise SpecError(path, node.line_of(key), f"{what}: refuses '{key}', which is not an unsupported "
                                                         f"parameter of the signature")
            refuses[key] = _text(node, key, what)
    for p in params:
        if p.types == ["unsupported"] and p.name not in refuses:
            raise SpecError(path, sig_line, f"{what}: unsupported parameter '{p.name}' needs its message under "
                                            f"'refuses'")
    raises: list[tuple[str, str]] = []
    if "raises" in entry:
        nodes = _expect(entry["raises"], LocatedList, path, entry.line_of("raises"), f"{what}: 'raises'")
        for i, node in enumerate(nodes):
            _expect(node, Located, path, nodes.item_lines[i], f"{what}: an error it raises")
            _check_keys(node, RAISES_KEYS, RAISES_KEYS, f"{what}: an error it raises")
            error = _text(node, "error", what)
            if error.split(":", 1)[0] not in ROUTINE_ERRORS:
                raise SpecError(path, node.line_of("error"), f"{what}: '{error}' does not start with one of "
                                                             f"{', '.join(sorted(ROUTINE_ERRORS))} and a colon")
            raises.append((error, _text(node, "when", what)))

    binding, calls = "none", []
    no_eval = _text(entry, "no_eval", what) if "no_eval" in entry else ""
    if no_eval and ({"binding", "call", "calls"} & set(entry)):
        raise SpecError(path, entry.line_of("no_eval"), f"{what}: no_eval (why cupp eval has no binding) goes "
                                                        f"without binding, call and calls")
    if no_eval:
        pass
    elif "binding" in entry:
        if entry["binding"] != "manual":
            raise SpecError(path, entry.line_of("binding"), f"{what}: binding '{entry['binding']}' (the only "
                                                            f"value is manual: a hand binding in tools/cupp/eval/)")
        if "call" in entry or "calls" in entry:
            raise SpecError(path, entry.line_of("binding"), f"{what}: a manual binding has no 'call'")
        binding = "manual"
    elif typed:
        calls = _load_calls(entry, params, what)
        binding = "generated"
    elif "call" in entry or "calls" in entry or "returns" in entry:
        raise SpecError(path, entry.line_of("call"), f"{what}: 'call' needs a typed signature (param: type = default)")
    else:
        binding = "manual"  # an untyped signature (the reductions and scans): bound by hand
    declared = None
    if "declare" in entry:
        if entry["declare"] != "generated":
            raise SpecError(path, entry.line_of("declare"), f"{what}: declare '{entry['declare']}' (the only value "
                                                            f"is generated)")
        if binding != "generated" or len(calls) != 1 or calls[0].returns or fold_options:
            raise SpecError(path, entry.line_of("declare"), f"{what}: declare: generated needs a typed signature and "
                                                            f"one call giving an array (no calls/returns, no folds)")
        declared = declaration(calls[0].call, params, path, entry.line_of("call"), what)
    notes = _text(entry, "notes", what) if "notes" in entry else None
    if namespace:  # a module's routine: NumPy's qualified name (fft.fftfreq) everywhere it is shown or called
        name, shown = f"{namespace}.{name}", f"{namespace}.{shown}"
        aliases = [f"{namespace}.{a}" for a in aliases]
    return Routine(path, entry.line, name, aliases, cpp, shown, _text(entry, "summary", what), op.name if op else None,
                   op.identity if op else None, empty, empty_error, result, nan, keywords, notes,
                   entry.line_of("aliases"), signature if typed else "", params, calls, binding, raises, refuses,
                   no_eval, fold_options, declared)


def load_family(path: str, shown: str, ops: list[Op]) -> RoutineFamily:
    doc = load(path, shown)
    _check_keys(doc, FAMILY_KEYS, FAMILY_KEYS - {"methods", "label", "module", "namespace", "folding", "guide"},
                "a routine family spec")
    family = doc["family"]
    stem = os.path.splitext(os.path.basename(path))[0]
    if not isinstance(family, str) or not IDENTIFIER.match(family):
        raise SpecError(shown, doc.line_of("family"), f"family name '{family}' is not a lower-case identifier")
    if family != stem:
        raise SpecError(shown, doc.line_of("family"), f"family '{family}' must live in a file named {family}.yaml")
    header = _text(doc, "header", "the family")
    if not re.match(r"^cupp/[\w/]+\.hpp$", header):
        raise SpecError(shown, doc.line_of("header"), f"header '{header}' is not a public header (cupp/<name>.hpp)")
    table = _text(doc, "table", "the family")
    if not CPP_IDENTIFIER.match(table):
        raise SpecError(shown, doc.line_of("table"), f"table '{table}' is not a C++ identifier")
    guide = _text(doc, "guide", "the family") if "guide" in doc else ""  # optional: a module may have none
    # core (runtime/), or a module: a top-level folder with a module.cmake (cmake/CuppModule.cmake)
    module = doc.get("module", "core")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(path))))
    if not isinstance(module, str) or not IDENTIFIER.match(module) or (
            module != "core" and not os.path.isfile(os.path.join(root, module, "module.cmake"))):
        raise SpecError(shown, doc.line_of("module"), f"module '{module}' is neither core nor a folder with a "
                                                      f"module.cmake")
    # The Python namespace of a module's routines (numpy.fft -> fft.fftfreq); "" for top-level names.
    namespace = doc.get("namespace", "" if module == "core" else module)
    if not isinstance(namespace, str) or (namespace and not IDENTIFIER.match(namespace)):
        raise SpecError(shown, doc.line_of("namespace"), f"namespace '{namespace}' is not a lower-case identifier")
    folding, folding_include = "", ""
    if "folding" in doc:
        node = _expect(doc["folding"], Located, shown, doc.line_of("folding"), "'folding'")
        _check_keys(node, FOLDING_KEYS, FOLDING_KEYS, "'folding'")
        folding, folding_include = node["options"], _text(node, "include", "'folding'")
        if folding not in FOLD_OPTIONS:
            raise SpecError(shown, node.line_of("options"), f"folding options '{folding}' is not one engine::fold "
                                                            f"takes ({', '.join(FOLD_OPTIONS)})")
        if not re.match(r"^cupp/[\w/]+\.hpp$", folding_include):
            raise SpecError(shown, node.line_of("include"), f"folding include '{folding_include}' is not a public "
                                                            f"header (cupp/<name>.hpp)")
        if module != "core":
            raise SpecError(shown, doc.line_of("folding"), "generated folding routines are core's only (a module's "
                                                           "family writes its C++ by hand)")
    by_name = {op.name: op for op in ops}
    entries = _expect(doc["routines"], LocatedList, shown, doc.line_of("routines"), "'routines'")
    if not entries:
        raise SpecError(shown, doc.line_of("routines"), "a family needs at least one routine")
    routines = []
    for i, entry in enumerate(entries):
        _expect(entry, Located, shown, entries.item_lines[i], "a routine")
        routines.append(load_routine(entry, by_name, namespace, folding))
    expected_ns = "cupp" if module == "core" else f"cupp::{module}"
    for r in routines:
        if r.declared and r.declared.namespace != expected_ns:
            raise SpecError(shown, r.line, f"routine '{r.name}': declare: generated declares {r.declared.namespace}::"
                                           f"{r.declared.function}, but the family's namespace is {expected_ns}")
    methods = []
    if "methods" in doc:
        nodes = _expect(doc["methods"], LocatedList, shown, doc.line_of("methods"), "'methods'")
        for i, entry in enumerate(nodes):
            _expect(entry, Located, shown, nodes.item_lines[i], "a ufunc method")
            _check_keys(entry, METHOD_KEYS, METHOD_KEYS, "a ufunc method")
            name = entry["name"]
            if not isinstance(name, str) or not IDENTIFIER.match(name):
                raise SpecError(shown, entry.line_of("name"), f"method name '{name}' is not a lower-case identifier")
            signature = _text(entry, "signature", f"method '{name}'")
            _signature_keywords(signature, f"ufunc.{name}", shown, entry.line_of("signature"))
            methods.append(Method(name, signature, _text(entry, "summary", f"method '{name}'")))
    label = _text(doc, "label", "the family") if "label" in doc else family
    return RoutineFamily(shown, family, _text(doc, "doc", "the family"), header, table, guide, routines, methods,
                         label, module, namespace, folding_include)
