"""The values the docs quote beside their anchors, checked against the code
(for tools/check-anchors.py). An anchor names a symbol; a number next to it
would go stale silently when the constant changes, so a quoted value has one
written form, and the check reads the constant's definition to compare.

A quoted value is an anchor in backticks followed at once by
    `PATH: kName` (VALUE)         `miniapp/step/simulation.hpp: kPhaseSampling` (8)
    `PATH: kName` (VALUE UNIT)    `miniapp/report/timing_trust.hpp: kShortWindowSeconds` (0.5 s)
    `PATH: kName` = VALUE         `miniapp/step/simulation.hpp: kPhaseSampling` = 8
VALUE is a number (`8`, `-1`, `0.5`) or a cube (`100³`, 100 * 100 * 100);
UNIT is one word the check does not read. The name may be qualified
(`kernels/layout.hpp: Layout::kLineMultiple` (64)). PATH must define the
name once, `constexpr ... kName = EXPR;` or `... kName{EXPR};`, with EXPR
literal arithmetic (`100LL * 100 * 100`, `1 << 24`, `0.5`), which the check
evaluates as C++ would; anything else it refuses rather than guesses.

Forms that look like a quote and are not one fail, so that every quoted
value is checked: a value after an anchor in another form
(`PATH: kName` (8 steps, ...)), a value before its anchor
(`every 8 (`PATH: kName`)`) and a constant's value quoted without its file
(`kName` (5)). Numbers in prose with no anchor are not seen: write them as
quotes.
"""
import ast
import operator
import re

VALUE = r"-?\d+(?:\.\d+)?³?"
# A constant by the project's naming (`kName`, `Layout::kName`).
CONSTANT = r"(?:[A-Za-z_]\w*::)*k[A-Z]\w*"


class NotLiteral(Exception):
    """A definition whose value is not literal arithmetic."""


def c_divide(a, b):
    """C++'s `/`: integers truncate toward zero; floats divide."""
    if isinstance(a, float) or isinstance(b, float):
        return a / b
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


def c_remainder(a, b):
    """C++'s `%` on integers: the sign of the dividend."""
    if isinstance(a, float) or isinstance(b, float):
        raise NotLiteral("% of a float")
    return a - c_divide(a, b) * b


def c_shift(shift):
    """`<<` or `>>` on integers, no wider than 64 bits (a huge count is refused)."""
    def apply(a, b):
        if isinstance(a, float) or isinstance(b, float) or not 0 <= b < 64:
            raise NotLiteral("a shift the check does not evaluate")
        return shift(a, b)
    return apply


OPERATORS = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: c_divide, ast.Mod: c_remainder,
    ast.LShift: c_shift(operator.lshift), ast.RShift: c_shift(operator.rshift),
}
# A C++ number and its suffix (`100LL`, `1.0f`, `0x10u`): the suffix goes.
NUMBER = re.compile(r"(?<![\w.])(0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)[uUlLfF]*(?![\w.])")


def evaluate(node):
    """The value of a parsed expression of numbers, + - * / % << >> and
    parentheses; NotLiteral for anything else (a name, a call, a cast)."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
        value = evaluate(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in OPERATORS:
        try:
            return OPERATORS[type(node.op)](evaluate(node.left), evaluate(node.right))
        except ZeroDivisionError:
            raise NotLiteral("a division by zero") from None
    raise NotLiteral("not literal arithmetic")


def code_value(expression):
    """The value of a C++ constant's initializer, or NotLiteral."""
    text = re.sub(r"(?<=\d)'(?=\d)", "", expression.strip())  # digit separators
    text = NUMBER.sub(lambda m: m.group(1), text)
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        raise NotLiteral("not literal arithmetic") from None
    return evaluate(tree.body)


def doc_value(text):
    """The number a quote writes: `8`, `0.5`, `100³`."""
    cube = text.endswith("³")
    number = text.rstrip("³")
    value = float(number) if "." in number else int(number)
    return value ** 3 if cube else value


def definitions(text, name):
    """The initializers of every constexpr definition of `name` in `text`."""
    head = rf"\bconstexpr\b[^;{{}}]*?(?<![\w:]){re.escape(name)}\s*"
    body = r"(?:=(?!=)\s*([^;{}]+?)|\{([^;{}]*)\})\s*[;,]"
    return [a or b for a, b in re.findall(head + body, text)]


def shown(value):
    """A value as the message prints it: 8, 0.5, 1000000."""
    return repr(value) if isinstance(value, float) else str(value)


def compare(repo, path, symbol, written):
    """Why the quote `path: symbol` (written) does not hold, or None."""
    name = symbol.split("::")[-1]
    found = sorted(set(definitions(repo.text(path), name)))
    if not found:
        return f"no constexpr definition of {name} in {path} for the value the doc quotes ({written})"
    if len(found) > 1:
        return f"{name} is defined {len(found)} ways in {path}; the check cannot tell which the doc quotes"
    try:
        value = code_value(found[0])
    except NotLiteral as e:
        return f"{symbol} in {path} is `{' '.join(found[0].split())}`, {e}: the check cannot read it"
    if value != doc_value(written):
        # A product is shown with its value, so the two numbers compare at sight.
        expression = " ".join(found[0].split())
        code = shown(value) if expression == shown(value) else f"{expression} = {shown(value)}"
        doc = written if written == shown(doc_value(written)) else f"{written} = {shown(doc_value(written))}"
        return f"{symbol} is {code} in {path}, the doc says {doc}"
    return None


class QuotedValues:
    """The quoted values of a doc line, and the forms that look like one."""

    def __init__(self, path, symbol):
        anchor = rf"`({path}): ({symbol})`"
        # ` (VALUE)`, ` (VALUE UNIT)` or ` = VALUE`, right after the anchor.
        self.quote = re.compile(rf"{anchor}(?: \(({VALUE})(?: [^\s()]+)?\)| = ({VALUE})(?![\d.³]))")
        self.near = re.compile(rf"{anchor} (?:\(|= )-?\d")
        self.before = re.compile(rf"(?<![\w.])({VALUE})(?: \w+)? \(`({path}): ({CONSTANT})`\)")
        self.bare = re.compile(rf"`({CONSTANT})` (?:\(|= )(-?\d[^)`,;]*)")

    def failures(self, repo, line):
        """One message per quote that does not hold or is not in the form."""
        found = []
        quoted = set()
        for match in self.quote.finditer(line):
            path, symbol = match.group(1), match.group(2)
            quoted.add(match.start())
            if repo.exists(path):  # else the anchor check says the file is gone
                why = compare(repo, path, symbol, match.group(3) or match.group(4))
                found += [why] if why else []
        for match in self.near.finditer(line):
            if match.start() not in quoted:
                found.append(f"the value after `{match.group(1)}: {match.group(2)}` is not"
                             " ` (VALUE)`, ` (VALUE UNIT)` or ` = VALUE` (tools/anchor_values.py)")
        for match in self.before.finditer(line):
            found.append(f"{match.group(1)} is written before its anchor:"
                         f" write `{match.group(2)}: {match.group(3)}` ({match.group(1)})")
        for match in self.bare.finditer(line):
            found.append(f"the value of `{match.group(1)}` is quoted without its file:"
                         f" write `PATH: {match.group(1)}` ({match.group(2).strip()})")
        return found
