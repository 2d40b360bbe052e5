"""Reads YAML spec files keeping the line of every mapping key and sequence item, so that every
validation error names the file and line it comes from (SpecError)."""
from __future__ import annotations

import yaml


class SpecError(Exception):
    """A spec that cannot be accepted; str() is 'file:line: message'."""

    def __init__(self, path: str, line: int | None, message: str):
        self.path, self.line, self.message = path, line, message
        super().__init__(f"{path}:{line}: {message}" if line else f"{path}: {message}")


class Located(dict):
    """A YAML mapping that remembers its own line and the line of each key (1-based)."""

    path: str = ""
    line: int = 0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.key_lines: dict[str, int] = {}

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class LocatedList(list):
    """A YAML sequence that remembers the line of each item."""

    path: str = ""
    line: int = 0
    item_lines: list[int]


class _Loader(yaml.SafeLoader):
    pass


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> Located:
    result = Located()
    result.path = loader.name
    result.line = node.start_mark.line + 1
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, str):
            key = str(key)
        if key in result:
            raise SpecError(loader.name, key_node.start_mark.line + 1, f"duplicate key '{key}'")
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = key_node.start_mark.line + 1
    return result


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode) -> LocatedList:
    result = LocatedList(loader.construct_object(child, deep=True) for child in node.value)
    result.path = loader.name
    result.line = node.start_mark.line + 1
    result.item_lines = [child.start_mark.line + 1 for child in node.value]
    return result


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


def _reader_error(shown: str, text: str, err: yaml.reader.ReaderError) -> SpecError:
    """A character YAML forbids (a control character): SpecError at its line, as the run-time
    loader words it (runtime/src/loader/spec_parser.cpp)."""
    line = text.count("\n", 0, err.position) + 1
    return SpecError(shown, line, f"invalid YAML: unacceptable character #x{err.character:04x}: "
                                  "special characters are not allowed")


def load(path: str, display_path: str | None = None) -> Located:
    """Loads one spec file; its top level must be a mapping."""
    shown = display_path or path
    with open(path, "rb") as stream:
        raw = stream.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:  # as the run-time loader words it
        raise SpecError(shown, raw.count(b"\n", 0, err.start) + 1,
                        f"invalid YAML: invalid UTF-8 byte #x{raw[err.start]:02x}: the file is not UTF-8") from None
    try:
        loader = _Loader(text)
    except yaml.reader.ReaderError as err:
        raise _reader_error(shown, text, err) from None
    loader.name = shown
    try:
        data = loader.get_single_data()
    except SpecError:
        raise
    except yaml.reader.ReaderError as err:
        raise _reader_error(shown, text, err) from None
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        raise SpecError(shown, mark.line + 1 if mark else None, f"invalid YAML: {err.problem}") from None
    finally:
        loader.dispose()
    if not isinstance(data, Located):
        raise SpecError(shown, 1, "the top level must be a mapping")
    return data
