"""Console output that works across the click- and rich-based import-linter releases."""

from importlinter.application import output


def print_error_line(text: str) -> None:
    """Print `text` as one unwrapped error line, even on narrow or non-terminal consoles."""
    console = getattr(output, "console", None)
    if console is None:
        output.print_error(text, bold=False)
    else:
        console.print(text, style="red", markup=False, soft_wrap=True)
