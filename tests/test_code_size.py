"""Small parts (issue 17): no class over 300 lines of code and no function over 60, outside
the SVG painter (many short drawing methods); at most ten modules directly in ``referee``.
Lines of code are the lines a statement spans, blank lines, comments and docstrings aside."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("referee", "notation", "vocabulary")
ALLOWED = {("referee/board_svg.py", "_Painter")}
MAX_CLASS, MAX_FUNCTION, MAX_TOP_MODULES = 300, 60, 10


def code_lines(node: ast.AST, source: list[str]) -> int:
    """How many lines of ``node`` hold code (not docstrings, comments or blanks)."""
    lines: set[int] = set()
    docstrings: set[int] = set()
    for inner in ast.walk(node):
        body = getattr(inner, "body", None)
        if isinstance(body, list) and body and _is_docstring(body[0]):
            docstrings.update(range(body[0].lineno, (body[0].end_lineno or body[0].lineno) + 1))
        if isinstance(inner, ast.stmt):
            lines.update(range(inner.lineno, (inner.end_lineno or inner.lineno) + 1))
    return sum(
        1
        for number in lines - docstrings
        if source[number - 1].strip() and not source[number - 1].strip().startswith("#")
    )


def _is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def oversized() -> list[str]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = str(path.relative_to(ROOT))
            text = path.read_text()
            source = text.splitlines()
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.ClassDef) and (relative, node.name) not in ALLOWED:
                    limit = MAX_CLASS
                elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    limit = MAX_FUNCTION
                else:
                    continue
                size = code_lines(node, source)
                if size > limit:
                    found.append(f"{relative}:{node.lineno} {node.name}: {size} > {limit}")
    return found


def test_no_class_or_function_is_oversized() -> None:
    assert oversized() == []


def test_the_counter_counts_code_only() -> None:
    source = '''def f():
    """A docstring
    of two lines."""
    # a comment

    return (1 +
            2)
'''
    tree = ast.parse(source)
    assert code_lines(tree.body[0], source.splitlines()) == 3  # def, and the two-line return


def test_at_most_ten_modules_stand_directly_in_referee() -> None:
    modules = [path.name for path in (ROOT / "referee").glob("*.py")]
    assert len(modules) <= MAX_TOP_MODULES, sorted(modules)
