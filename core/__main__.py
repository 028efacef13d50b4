"""Command line: ``python -m core odds <system> [options] [--json]``, and
``python -m core systems-table`` (README's table of the library's game systems)."""

from __future__ import annotations

import argparse
import json
import sys

from core.rules.errors import StonetableError
from core.rules.registry import Registry, default_registry


def build_parser(registry: Registry) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m core", description="Stonetable rules tools")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("systems-table", help="the table of the library's game systems")
    odds = commands.add_parser("odds", help="exact odds of a roll")
    systems = odds.add_subparsers(dest="system", required=True)
    for system in registry:
        if system.odds is None:
            continue
        sub = systems.add_parser(system.key, help=system.name)
        system.odds.add_arguments(sub)
        sub.add_argument("--json", action="store_true", help="print JSON instead of a table")
    return parser


def main(argv: list[str] | None = None) -> int:
    registry = default_registry()
    args = build_parser(registry).parse_args(argv)
    if args.command == "systems-table":
        from core.words.systems_words import systems_table  # only this command needs it

        print(systems_table(), end="")
        return 0
    system = registry.find(args.system)
    assert system.odds is not None
    try:
        result = system.odds.compute(args)
    except StonetableError as exc:
        print(exc.message, file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result))
    else:
        print(system.odds.format_table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
