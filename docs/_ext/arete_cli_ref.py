"""Sphinx extension: the automatic CLI reference.

The directive ``.. arete-cli::`` renders, from
:func:`arete_proofs.cli.build_parser` (in :mod:`arete_proofs.cli.parser`; each
subcommand is defined in its own module of :mod:`arete_proofs.cli`), the
``--help`` output of the main ``arete`` parser and of every registered
subcommand (recursively, should a subcommand have subcommands of its own), one
section per command, each a literal block.  Help text is formatted at a fixed
width (``WIDTH`` columns, independent of ``COLUMNS`` and of the terminal), so
builds are reproducible.

Options of the directive:

``:width: N``
    format the help at N columns instead of the default 80.
``:prog: NAME``
    title of the top section (default: the parser's ``prog``).
``:command: NAME``
    only the help of one subcommand (``arete`` for the main parser), as a block without a
    section: the generated page of that command has its own title.

On ``builder-inited`` the extension also writes ``docs/generated/cli/index.md`` (the commands
with their one-line help) and one page ``docs/generated/cli/<command>.md`` per subcommand, each
holding ``.. arete-cli:: :command: <command>``: a new subcommand gets its reference page with no
edit here.

Usage in a MyST page::

    ```{eval-rst}
    .. arete-cli::
    ```
"""

from __future__ import annotations

import argparse
import functools
import os
from collections.abc import Iterator
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_id

from arete_generated import sync

WIDTH = 80


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser, str]]:
    """``(name, subparser, one-line help)`` of the registered subcommands, in order."""
    result = []
    for action in parser._actions:  # noqa: SLF001 - argparse exposes no public accessor
        if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}  # noqa: SLF001
            seen: set[int] = set()
            for name, sub in action.choices.items():
                if id(sub) in seen:  # aliases map several names to one parser
                    continue
                seen.add(id(sub))
                result.append((name, sub, helps.get(name, "")))
    return result


def _format_help(parser: argparse.ArgumentParser, width: int) -> str:
    """``parser.format_help()`` at exactly ``width`` columns, without colour."""
    formatter_class = parser.formatter_class
    saved_columns = os.environ.get("COLUMNS")
    try:
        # The formatter takes its width from COLUMNS when none is given; pass it
        # explicitly and pin COLUMNS too (for formatters that ignore ``width``).
        os.environ["COLUMNS"] = str(width)
        parser.formatter_class = functools.partial(formatter_class, width=width)
        if hasattr(parser, "color"):  # Python >= 3.14: no ANSI escapes in the docs
            saved_color, parser.color = parser.color, False
        try:
            text = parser.format_help()
        finally:
            if hasattr(parser, "color"):
                parser.color = saved_color
    finally:
        parser.formatter_class = formatter_class
        if saved_columns is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = saved_columns
    return "\n".join(line.rstrip() for line in text.rstrip().splitlines())


def iter_commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser, str]]:
    """Yield ``(command path, parser, one-line help)`` for ``parser`` and every subcommand, depth first."""
    if not path:
        yield (), parser, ""
    for name, sub, help_ in _subcommands(parser):
        yield (*path, name), sub, help_
        yield from iter_commands(sub, (*path, name))


class AreteCliDirective(SphinxDirective):
    """``.. arete-cli::`` -- the help of ``arete`` and of each subcommand."""

    has_content = False
    option_spec = {
        "width": directives.positive_int,
        "prog": directives.unchanged,
        "command": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        from arete_proofs.cli import build_parser

        width = self.options.get("width", WIDTH)
        parser = build_parser()
        prog = self.options.get("prog") or parser.prog
        self.env.note_dependency(__file__)
        try:
            import arete_proofs.cli as cli_package

            # one module per subcommand: a change to any of them changes the help
            for path in sorted(Path(cli_package.__file__).parent.glob("*.py")):
                self.env.note_dependency(str(path))
        except Exception:  # pragma: no cover - only a rebuild hint
            pass

        only = self.options.get("command")
        if only:
            for path, sub, help_ in iter_commands(parser):
                if " ".join(path or (parser.prog,)) == only:
                    text = _format_help(sub, width)
                    block = nodes.literal_block(text, text, language="text")
                    block["classes"].append("arete-cli-help")
                    return [block]
            raise self.error(f"arete-cli: no command {only!r}")

        top = None
        result: list[nodes.Node] = []
        for path, sub, help_ in iter_commands(parser):
            title = " ".join((prog, *path))
            section_id = make_id(self.env, self.state.document, "cli", title)
            section = nodes.section(ids=[section_id], names=[nodes.fully_normalize_name(title)])
            section += nodes.title("", "", nodes.literal(title, title))
            if help_:
                section += nodes.paragraph(help_, help_[0].upper() + help_[1:] + ("" if help_.endswith(".") else "."))
            text = _format_help(sub, width)
            block = nodes.literal_block(text, text, language="text")
            block["classes"].append("arete-cli-help")
            section += block
            self.state.document.note_implicit_target(section, section)
            if top is None:
                top = section
                result.append(section)
            else:
                top += section
        return result


OUT = Path(__file__).resolve().parent.parent / "generated" / "cli"


def pages() -> dict[str, str]:
    """``{file name: Markdown}``: an index of the commands and one help page per command."""
    from arete_proofs.cli import build_parser

    parser = build_parser()
    commands = [(path, help_) for path, _, help_ in iter_commands(parser) if path]
    index = ["# Command help", "",
             "The complete `--help` of `arete` and of each subcommand, generated from the argument "
             "parser (`arete_proofs.cli.build_parser()`) when the documentation is built, so it "
             f"always matches the program; formatted at {WIDTH} columns. How the commands behave "
             "(limits, exit status, digits) is on {doc}`/reference/cli`.", "",
             "```{eval-rst}", ".. arete-cli::", "   :command: arete", "```", "",
             "| command | what it does |", "|---|---|"]
    out = {}
    for path, help_ in commands:
        name = " ".join(path)
        stem = "-".join(path)
        index.append(f"| [`arete {name}`]({stem}.md) | {help_.replace('|', chr(92) + '|')} |")
        out[f"{stem}.md"] = "\n".join([f"# `arete {name}`", "", (help_[:1].upper() + help_[1:]).rstrip(".") + ".",
                                        "", "```{eval-rst}", ".. arete-cli::", f"   :command: {name}", "```", ""])
    index += ["", "```{toctree}", ":hidden:", ""] + ["-".join(p) for p, _ in commands] + ["```", ""]
    out["index.md"] = "\n".join(index)
    return out


def generate(app) -> None:
    sync(OUT, pages())


def setup(app):
    app.connect("builder-inited", generate)
    app.add_directive("arete-cli", AreteCliDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
