"""The house's figures that issue 22's closing note counts, from the code as it is.

    python bench/house_counts.py

* `Any` annotations in product code (kiosk, ui, hardware, hub): every annotation (a parameter's,
  a return's, an annotated assignment's) whose expression names `Any` (`dict[str, Any]`
  too), and those that are `Any` alone, counted with `ast`;
* exception classes: every class of those packages that is a `BaseException` (found by
  importing each module), and its roots: the classes outside the packages that the tree hangs
  from (`DartshipError`'s own base counted once, under DartshipError);
* `except (RuleError, ValueError)`: handlers whose tuple catches a `RuleError` together with a
  `ValueError`;
* Store methods per class of kiosk/store.py (the classes' own `def`s, properties included;
  the row dataclasses without any are left out).

Figures only, never a test (ANN401 and the import circles have tools of their own:
`ruff check --select ANN401 kiosk ui --statistics`, `farm-studio look`).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PACKAGES = ("kiosk", "ui", "hardware", "hub")


def sources() -> list[Path]:
    found = (p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))
    return sorted(p for p in found if "firmware" not in p.parts)


def names_any(node: ast.expr | None) -> bool:
    if node is None:
        return False
    for part in ast.walk(node):
        if isinstance(part, ast.Name) and part.id == "Any":
            return True
        if isinstance(part, ast.Attribute) and part.attr == "Any":
            return True
        if isinstance(part, ast.Constant) and isinstance(part.value, str) and "Any" in part.value:
            try:
                if names_any(ast.parse(part.value, mode="eval").body):
                    return True
            except SyntaxError:
                pass
    return False


def bare_any(node: ast.expr | None) -> bool:
    return (isinstance(node, ast.Name) and node.id == "Any") or (
        isinstance(node, ast.Constant) and node.value == "Any"
    )


def any_annotations(test=names_any) -> Counter[str]:
    found: Counter[str] = Counter()
    for path in sources():
        package = path.relative_to(ROOT).parts[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            annotations: list[ast.expr | None] = []
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                arguments = node.args
                every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
                every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
                annotations += [a.annotation for a in every]
                annotations.append(node.returns)
            elif isinstance(node, ast.AnnAssign):
                annotations.append(node.annotation)
            found[package] += sum(1 for a in annotations if test(a))
    return found


def rule_and_value_handlers() -> list[str]:
    where = []
    for path in sources():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ExceptHandler) and isinstance(node.type, ast.Tuple):
                caught = {e.id if isinstance(e, ast.Name) else getattr(e, "attr", "") for e in node.type.elts}
                if "ValueError" in caught and any(n.endswith("RuleError") for n in caught):
                    where.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return where


def exception_classes() -> tuple[dict[str, type], list[str]]:
    classes: dict[str, type] = {}
    failed = []
    for package in PACKAGES:
        module = importlib.import_module(package)
        names = [package] + [m.name for m in pkgutil.walk_packages(module.__path__, f"{package}.")]
        for name in names:
            if ".firmware" in name or name.endswith("__main__"):
                continue
            try:
                loaded = importlib.import_module(name)
            except Exception as err:
                failed.append(f"{name}: {type(err).__name__}: {err}")
                continue
            for _, cls in inspect.getmembers(loaded, inspect.isclass):
                if issubclass(cls, BaseException) and cls.__module__.split(".")[0] in PACKAGES:
                    classes[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return classes, failed


def roots(classes: dict[str, type]) -> Counter[str]:
    """Per exception class of ours, the class outside our packages it hangs from (through the
    first base that is an exception); DartshipError's tree counts as DartshipError."""
    found: Counter[str] = Counter()
    for cls in classes.values():
        names = [f"{c.__module__}.{c.__qualname__}" for c in cls.__mro__]
        if "kiosk.errors.DartshipError" in names:
            found["DartshipError"] += 1
            continue
        outside = next(c for c in cls.__mro__ if c.__module__.split(".")[0] not in PACKAGES)
        found[outside.__qualname__] += 1
    return found


def store_methods() -> dict[str, int]:
    tree = ast.parse((ROOT / "kiosk" / "store.py").read_text())
    return {
        node.name: sum(1 for n in node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef))
        for node in tree.body
        if isinstance(node, ast.ClassDef)
    }


def main() -> None:
    for what, test in (("naming Any anywhere", names_any), ("that are just Any", bare_any)):
        found = any_annotations(test)
        each = ", ".join(f"{k} {v}" for k, v in sorted(found.items()))
        print(f"Any annotations {what}: {sum(found.values())} ({each})")
    where = rule_and_value_handlers()
    print(f"except (RuleError, ValueError): {len(where)} {where}")
    classes, failed = exception_classes()
    files = {name.rsplit(".", 1)[0] for name in classes}
    tree = roots(classes)
    print(f"exception classes: {len(classes)} in {len(files)} modules")
    print(f"  hanging from: {', '.join(f'{k} {v}' for k, v in tree.most_common())}")
    outside = sorted(n for n, c in classes.items() if "DartshipError" not in [b.__name__ for b in c.__mro__])
    print(f"  not under DartshipError: {outside}")
    for line in failed:
        print(f"  (not imported: {line})")
    print("Store methods per class (kiosk/store.py):")
    for name, count in store_methods().items():
        if count:
            print(f"  {name}: {count}")


if __name__ == "__main__":
    main()
