"""``satiling completion bash|zsh``: a shell completion script, printed.

    eval "$(satiling completion bash)"          # in ~/.bashrc
    eval "$(satiling completion zsh)"           # in ~/.zshrc

The script is written from the parser itself (every command, its options, the choices an option
takes, the bundled puzzle names), so it needs no package beyond satiling and starts no Python at
a TAB; files are completed where a command takes a NAME, a FILE or a path.  Printed again after an
upgrade, it follows the new commands.
"""
from __future__ import annotations

import argparse
import shlex

from ..exits import EXIT_FOUND

SHELLS = ("bash", "zsh")


def register(sub) -> None:
    s = sub.add_parser("completion", help="print a shell completion script (bash or zsh)",
                       description="Print a completion script for bash or zsh: "
                                   "eval \"$(satiling completion bash)\" in ~/.bashrc.")
    s.add_argument("shell", choices=SHELLS, help="the shell the script is for")
    # the subcommands' parsers, filled in by the time the command runs
    s.set_defaults(run=lambda args: cmd_completion(args, sub))


def cmd_completion(args: argparse.Namespace, sub: argparse._SubParsersAction) -> int:
    print(script(sub, args.shell))
    return EXIT_FOUND


def script(sub: argparse._SubParsersAction, shell: str = "bash") -> str:
    """The completion function for ``satiling``, with its table of commands and options."""
    from ..catalog import available
    names = " ".join(name for name, _ in available())
    cases = []
    for command, parser in sub.choices.items():
        options, valued, choices = _options(parser)
        lines = [f"        {shlex.quote(command)})",
                 f"            opts={shlex.quote(' '.join(options))}",
                 f"            valued={shlex.quote(' ' + ' '.join(valued) + ' ')}"]
        for option, values in choices.items():
            lines.append(f"            [[ $prev == {option} ]] && "
                         f"{{ COMPREPLY=($(compgen -W {shlex.quote(' '.join(values))} -- \"$cur\")); return; }}")
        lines.append("            ;;")
        cases.append("\n".join(lines))
    commands = " ".join(sub.choices)
    body = _TEMPLATE.format(commands=shlex.quote(commands + " --help --version"),
                            names=shlex.quote(names), cases="\n".join(cases))
    if shell == "zsh":
        body = "autoload -U +X bashcompinit && bashcompinit\n" + body
    return body


def _options(parser: argparse.ArgumentParser) -> tuple[list[str], list[str], dict[str, list[str]]]:
    """A command's option strings, those that take a value, and the values of those with choices."""
    options, valued, choices = [], [], {}
    for action in parser._actions:
        if not action.option_strings:
            continue
        options += action.option_strings
        if action.nargs != 0:
            valued += action.option_strings
        if action.choices:
            for option in action.option_strings:
                choices[option] = [str(c) for c in action.choices]
    return options, valued, choices


_TEMPLATE = r"""# satiling completion (bash): eval "$(satiling completion bash)"
_satiling() {{
    local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}}
    local command=${{COMP_WORDS[1]}} opts="" valued=""
    COMPREPLY=()
    if (( COMP_CWORD == 1 )); then
        COMPREPLY=($(compgen -W {commands} -- "$cur"))
        return
    fi
    case $command in
{cases}
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    elif [[ $valued == *" $prev "* ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
    else
        COMPREPLY=($(compgen -W {names} -- "$cur") $(compgen -f -- "$cur"))
    fi
}}
complete -o filenames -F _satiling satiling
"""
