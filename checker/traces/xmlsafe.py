"""Text that XML 1.0 can carry. TLA+ strings may hold any character, but XML 1.0 forbids most
control characters (even escaped as &#1;), so a JUnit or GraphML file holding one would not
parse. They are written as the visible escape `\\uXXXX` instead."""
from __future__ import annotations

import re

# Everything outside XML 1.0's Char production.
_INVALID = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_safe(text: str) -> str:
    """`text` with every character XML 1.0 cannot hold replaced by `\\uXXXX`."""
    return _INVALID.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
