"""Reads the lichess-bot `engine:` section from docs/lichess-bot.md, so the
guide, tests/test_lichess.py and scripts/lichess-bot-check all use the same
options (Python 3 standard library only).

The guide's first ```yaml block that holds `uci_options:` is parsed with a
small indentation-based reader that handles what such a block needs: nested
mappings of scalars, `# comments`, quoted strings, true/false and integers.
It gives the same values that PyYAML (lichess-bot's reader) gives for them."""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
DOC = os.path.join(HERE, "..", "docs", "lichess-bot.md")

# Options python-chess sets itself every game (chess.engine.MANAGED_OPTIONS);
# lichess-bot drops them from uci_options before calling configure().
MANAGED = ("uci_chess960", "uci_variant", "multipv", "ponder")

# `info string` lines that only report, after a setoption: a book opened or
# tablebases found (without a warning). Any other `info string` reply to a
# setoption is a complaint (unknown option, bad value, missing file, ...).
INFORMATIONAL = (
    re.compile(r"^info string book '[^']*' opened: \d+ entries$"),
    re.compile(r"^info string found \d+ tablebase files? \(\d+ WDL, \d+ DTZ\), up to \d+ pieces$"),
)


def is_complaint(line):
    """True for an `info string` line that is not purely informational."""
    return line.startswith("info string") and not any(r.match(line) for r in INFORMATIONAL)


def yaml_block(path=DOC):
    """The text of the first ```yaml fenced block that contains `uci_options:`."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for m in re.finditer(r"^```yaml[^\n]*\n(.*?)^```", text, re.S | re.M):
        if re.search(r"^\s*uci_options:", m.group(1), re.M):
            return m.group(1)
    raise ValueError("no ```yaml block with uci_options: in %s" % path)


def _strip_comment(s):
    quote = None
    for i, ch in enumerate(s):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and (i == 0 or s[i - 1] in " \t"):
            return s[:i].rstrip()
    return s.rstrip()


def scalar(v):
    """A YAML scalar as PyYAML reads it, for the forms the guide uses."""
    if len(v) >= 2 and v[0] == v[-1] and v[0] in "\"'":
        return v[1:-1]
    if v.lower() in ("true", "false"):
        return v.lower() == "true"
    if re.fullmatch(r"[-+]?\d+", v):
        return int(v)
    return v


def parse(text):
    """Nested dicts from an indentation-based YAML mapping."""
    root = {}
    stack = [(-1, root)]  # (indent, mapping)
    last = None  # (indent, parent mapping, key) of a key with an empty value
    for raw in text.splitlines():
        line = _strip_comment(raw)
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        body = line.strip()
        m = re.fullmatch(r"(\"[^\"]*\"|'[^']*'|[^:]+?)\s*:(?:\s+(.*))?", body)
        if not m:
            raise ValueError("cannot read line: %r" % raw)
        key, value = scalar(m.group(1)), m.group(2)
        if last and indent > last[0]:  # the first child of the last empty key
            child = {}
            last[1][last[2]] = child
            stack.append((indent, child))
        else:
            while len(stack) > 1 and stack[-1][0] > indent:
                stack.pop()
        last = None
        mapping = stack[-1][1]
        if value is None or value == "":
            mapping[key] = None
            last = (indent, mapping, key)
        else:
            mapping[key] = scalar(value)
    return root


def engine_section(path=DOC):
    """The `engine:` mapping of the guide's yaml block."""
    return parse(yaml_block(path))["engine"]


def uci_options(path=DOC):
    """engine.uci_options as {name: value} (bool, int or str), in order."""
    return dict(engine_section(path)["uci_options"] or {})


def setoption_line(name, value):
    """The line python-chess (chess.engine.UciProtocol._setoption) sends."""
    if value is True:
        return "setoption name %s value true" % name
    if value is False:
        return "setoption name %s value false" % name
    if value is None:
        return "setoption name %s" % name
    return "setoption name %s value %s" % (name, value)
